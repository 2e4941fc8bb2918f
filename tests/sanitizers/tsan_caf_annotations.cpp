// ThreadSanitizer builds only (added to the status_store library by CMakeLists.txt when
// STATUS_STORE_SANITIZE contains "thread"): tells TSan about the happens-before edges that CAF 0.17's
// mailboxes and scheduler create.
//
// Why: Debian's libcaf_core.so is not built with -fsanitize=thread. Its mailboxes (a lock-free
// LIFO inbox), its work-stealing queues and its reference counts synchronize with atomics that TSan
// cannot see, so every hand-over through CAF looks like a data race to it: the payload of a message
// written by the sender and read by the receiving actor, the state of an actor that one CAF worker
// leaves and another resumes, an actor's state written by its spawner and read on its first run.
// (A first TSan run of the integration tests reported over 2,000 such races, none of them real.)
//
// What: the CAF entry points below are defined here as well, so the dynamic linker binds every call
// to them (libcaf_core.so's own, through its PLT and vtables) to these definitions, which forward to
// CAF's originals (dlsym RTLD_NEXT) and add the edge CAF's atomics make, keyed by the actor:
//   enqueue (any thread)                 release(actor)   before the message is pushed
//   launch (the spawner)                 release(actor)   the state written by the constructor
//   resume (a CAF worker)                acquire(actor) ... release(actor) around each run
//   each message handed to a behavior    acquire(actor) ... release(actor) around its handler (resume
//                                        also takes messages that arrive while it runs)
//   blocking dequeue / await_data        acquire(actor)   after a scoped_actor got a message
//   intrusive_ptr_release(actor)         release + acquire, so the thread that destroys the actor
//                                        has seen what every other holder did
// (The scheduler calls resume through the `resumable` base; the compiler emits that this-adjusting
// thunk next to the definition below, so it is replaced as well.)
// These are exactly the orderings CAF guarantees (C++ release/acquire on the same mailbox or
// control block), no more: two actors, or an actor and another thread, touching the same memory
// without a message between them are still reported. Nothing is suppressed by this file.
#include "caf/actor_control_block.hpp"
#include "caf/blocking_actor.hpp"
#include "caf/scheduled_actor.hpp"

#include <sanitizer/tsan_interface.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace {

template <class Function>
Function original(const char* mangled_name) {
  void* address = dlsym(RTLD_NEXT, mangled_name);
  if (address == nullptr) {
    std::fprintf(stderr, "tsan_caf_annotations: %s not found in libcaf_core (not CAF 0.17.6?)\n", mangled_name);
    std::abort();
  }
  return reinterpret_cast<Function>(address);
}

void* key(const void* actor) { return const_cast<void*>(actor); }

}  // namespace

namespace caf {

void scheduled_actor::enqueue(mailbox_element_ptr element, execution_unit* context) {
  using function = void (*)(scheduled_actor*, mailbox_element_ptr, execution_unit*);
  static const function forward = original<function>(
      "_ZN3caf15scheduled_actor7enqueueESt10unique_ptrINS_15mailbox_elementENS_6detail8disposerEEPNS_14execution_"
      "unitE");
  __tsan_release(key(this));
  forward(this, std::move(element), context);
}

void scheduled_actor::launch(execution_unit* context, bool lazy, bool hide) {
  using function = void (*)(scheduled_actor*, execution_unit*, bool, bool);
  static const function forward = original<function>("_ZN3caf15scheduled_actor6launchEPNS_14execution_unitEbb");
  __tsan_release(key(this));
  forward(this, context, lazy, hide);
}

resumable::resume_result scheduled_actor::resume(execution_unit* context, size_t max_throughput) {
  using function = resumable::resume_result (*)(scheduled_actor*, execution_unit*, size_t);
  static const function forward = original<function>("_ZN3caf15scheduled_actor6resumeEPNS_14execution_unitEm");
  __tsan_acquire(key(this));
  const resumable::resume_result result = forward(this, context, max_throughput);
  __tsan_release(key(this));
  return result;
}

// resume handles every message in the mailbox, also those that arrive while it runs, so each message
// is acquired when CAF hands it to the actor's behavior. And each one is released when the behavior
// is done with it: once resume has seen an empty mailbox, the next enqueue may already resume the
// actor on another worker before this resume has returned.
intrusive::task_result scheduled_actor::mailbox_visitor::operator()(mailbox_element& element) {
  using function = intrusive::task_result (*)(mailbox_visitor*, mailbox_element&);
  static const function forward =
      original<function>("_ZN3caf15scheduled_actor15mailbox_visitorclERNS_15mailbox_elementE");
  scheduled_actor* actor = self;  // the visitor may not outlive the call
  __tsan_acquire(key(actor));
  const intrusive::task_result result = forward(this, element);
  __tsan_release(key(actor));
  return result;
}

intrusive::task_result blocking_actor::mailbox_visitor::operator()(mailbox_element& element) {
  using function = intrusive::task_result (*)(mailbox_visitor*, mailbox_element&);
  static const function forward =
      original<function>("_ZN3caf14blocking_actor15mailbox_visitorclERNS_15mailbox_elementE");
  blocking_actor* actor = self;
  __tsan_acquire(key(actor));
  const intrusive::task_result result = forward(this, element);
  __tsan_release(key(actor));
  return result;
}

void blocking_actor::enqueue(mailbox_element_ptr element, execution_unit* context) {
  using function = void (*)(blocking_actor*, mailbox_element_ptr, execution_unit*);
  static const function forward = original<function>(
      "_ZN3caf14blocking_actor7enqueueESt10unique_ptrINS_15mailbox_elementENS_6detail8disposerEEPNS_14execution_unitE");
  __tsan_release(key(this));
  forward(this, std::move(element), context);
}

mailbox_element_ptr blocking_actor::dequeue() {
  using function = mailbox_element_ptr (*)(blocking_actor*);
  static const function forward = original<function>("_ZN3caf14blocking_actor7dequeueEv");
  mailbox_element_ptr element = forward(this);
  __tsan_acquire(key(this));
  return element;
}

void blocking_actor::await_data() {
  using function = void (*)(blocking_actor*);
  static const function forward = original<function>("_ZN3caf14blocking_actor10await_dataEv");
  forward(this);
  __tsan_acquire(key(this));
}

bool blocking_actor::await_data(timeout_type timeout) {
  using function = bool (*)(blocking_actor*, timeout_type);
  static const function forward = original<function>(
      "_ZN3caf14blocking_actor10await_"
      "dataENSt6chrono10time_pointINS1_3_V212system_clockENS1_8durationIlSt5ratioILl1ELl1000000000EEEEEE");
  const bool ready = forward(this, timeout);
  __tsan_acquire(key(this));
  return ready;
}

void intrusive_ptr_release(actor_control_block* block) {
  using function = void (*)(actor_control_block*);
  static const function forward = original<function>("_ZN3caf21intrusive_ptr_releaseEPNS_19actor_control_blockE");
  __tsan_release(block);
  __tsan_acquire(block);
  forward(block);
}

}  // namespace caf
