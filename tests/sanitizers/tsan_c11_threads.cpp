// ThreadSanitizer builds only (linked in by CMakeLists.txt when STATUS_STORE_SANITIZE contains
// "thread"): C11 <threads.h> on top of POSIX threads, so that TSan sees librdkafka's threads and locks.
//
// Why: librdkafka (Debian's 2.0.2 and the default 2.8.0 alike: both configure C11THREADS) creates
// its threads with glibc's C11 thrd_create and synchronizes with
// mtx_lock / cnd_wait / call_once (nm -D librdkafka.so.1). The TSan runtimes we have (GCC 12's
// libtsan, clang 14's compiler-rt) intercept pthread_create and pthread_mutex_lock, but not the C11
// functions, which glibc implements by calling its internal __pthread_* entry points directly. So:
//   - a thread made by thrd_create has no TSan thread state, and its first malloc crashes the
//     runtime ("ThreadSanitizer: SEGV on unknown address 0x000000000c38" in a "rdk:" thread);
//   - every happens-before edge librdkafka makes with mtx_* / cnd_* is invisible, so any hand-over
//     between a librdkafka thread and ours (delivery reports, consumed messages, log callbacks) would
//     be reported as a race.
// The definitions below are exported by the test executable, so the dynamic linker binds librdkafka's
// references to them (as it binds them to the sanitizer's own interceptors) instead of to glibc; they
// do what glibc does (glibc's mtx_t and cnd_t wrap pthread_mutex_t and pthread_cond_t, thrd_t is a
// pthread_t), but through the public pthread functions that TSan intercepts. Nothing is suppressed.
//
// One more edge: librdkafka initializes a mutex or condition variable in one thread and hands the
// object containing it to another through its own uninstrumented atomics (reference counts, op
// queues). TSan would report the first lock in the other thread as a race with the initialization;
// so each initialization is released on the object's address and each use acquires it, which is
// the ordering librdkafka's hand-over provides.
#include <pthread.h>
#include <sanitizer/tsan_interface.h>
#include <threads.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <new>

static_assert(sizeof(thrd_t) == sizeof(pthread_t));
static_assert(sizeof(mtx_t) >= sizeof(pthread_mutex_t));
static_assert(sizeof(cnd_t) >= sizeof(pthread_cond_t));
static_assert(sizeof(once_flag) >= sizeof(pthread_once_t));

namespace {

pthread_mutex_t* as_pthread(mtx_t* m) { return reinterpret_cast<pthread_mutex_t*>(m); }
pthread_cond_t* as_pthread(cnd_t* c) { return reinterpret_cast<pthread_cond_t*>(c); }

// glibc's thrd_err_map.
int thrd_result(int err) {
  switch (err) {
    case 0:
      return thrd_success;
    case ENOMEM:
      return thrd_nomem;
    case ETIMEDOUT:
      return thrd_timedout;
    case EBUSY:
      return thrd_busy;
    default:
      return thrd_error;
  }
}

struct start_info {
  thrd_start_t function;
  void* argument;
};

void* start_thread(void* raw) {
  const start_info info = *static_cast<start_info*>(raw);
  delete static_cast<start_info*>(raw);
  // The int result travels through the pointer, as in glibc.
  return reinterpret_cast<void*>(static_cast<intptr_t>(info.function(info.argument)));
}

}  // namespace

extern "C" {

int thrd_create(thrd_t* thread, thrd_start_t function, void* argument) {
  auto* info = new (std::nothrow) start_info{function, argument};
  if (info == nullptr) return thrd_nomem;
  pthread_t id{};
  const int err = pthread_create(&id, nullptr, start_thread, info);
  if (err != 0) {
    delete info;
    return thrd_result(err);
  }
  *thread = static_cast<thrd_t>(id);
  return thrd_success;
}

int thrd_join(thrd_t thread, int* result) {
  void* value = nullptr;
  const int err = pthread_join(static_cast<pthread_t>(thread), &value);
  if (err == 0 && result != nullptr) *result = static_cast<int>(reinterpret_cast<intptr_t>(value));
  return thrd_result(err);
}

int thrd_detach(thrd_t thread) { return thrd_result(pthread_detach(static_cast<pthread_t>(thread))); }

int mtx_init(mtx_t* mutex, int type) {
  pthread_mutexattr_t attributes;
  pthread_mutexattr_init(&attributes);
  // mtx_plain and mtx_timed are plain mutexes in glibc; mtx_recursive adds recursion.
  if (type & mtx_recursive) pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE);
  const int err = pthread_mutex_init(as_pthread(mutex), &attributes);
  pthread_mutexattr_destroy(&attributes);
  __tsan_release(mutex);
  return thrd_result(err);
}

int mtx_lock(mtx_t* mutex) {
  __tsan_acquire(mutex);
  return thrd_result(pthread_mutex_lock(as_pthread(mutex)));
}
int mtx_trylock(mtx_t* mutex) {
  __tsan_acquire(mutex);
  return thrd_result(pthread_mutex_trylock(as_pthread(mutex)));
}
int mtx_timedlock(mtx_t* __restrict mutex, const struct timespec* __restrict deadline) {
  __tsan_acquire(mutex);
  return thrd_result(pthread_mutex_timedlock(as_pthread(mutex), deadline));
}
int mtx_unlock(mtx_t* mutex) { return thrd_result(pthread_mutex_unlock(as_pthread(mutex))); }
void mtx_destroy(mtx_t* mutex) {
  __tsan_acquire(mutex);
  pthread_mutex_destroy(as_pthread(mutex));
}

int cnd_init(cnd_t* condition) {
  const int err = pthread_cond_init(as_pthread(condition), nullptr);
  __tsan_release(condition);
  return thrd_result(err);
}
int cnd_signal(cnd_t* condition) {
  __tsan_acquire(condition);
  return thrd_result(pthread_cond_signal(as_pthread(condition)));
}
int cnd_broadcast(cnd_t* condition) {
  __tsan_acquire(condition);
  return thrd_result(pthread_cond_broadcast(as_pthread(condition)));
}
int cnd_wait(cnd_t* condition, mtx_t* mutex) {
  __tsan_acquire(condition);
  return thrd_result(pthread_cond_wait(as_pthread(condition), as_pthread(mutex)));
}
int cnd_timedwait(cnd_t* __restrict condition, mtx_t* __restrict mutex, const struct timespec* __restrict deadline) {
  __tsan_acquire(condition);
  return thrd_result(pthread_cond_timedwait(as_pthread(condition), as_pthread(mutex), deadline));
}
void cnd_destroy(cnd_t* condition) {
  __tsan_acquire(condition);
  pthread_cond_destroy(as_pthread(condition));
}

void call_once(once_flag* flag, void (*function)(void)) {
  pthread_once(reinterpret_cast<pthread_once_t*>(flag), function);
}

}  // extern "C"
