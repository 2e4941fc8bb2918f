#include "actors/threads/thread_name.hpp"

#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace status_store {

void name_this_thread(const char* name) {
  const std::string truncated{name, std::min<size_t>(std::strlen(name), 15)};  // longer names are refused
  pthread_setname_np(pthread_self(), truncated.c_str());
}

}  // namespace status_store
