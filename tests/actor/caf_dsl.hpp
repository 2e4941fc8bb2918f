#pragma once
// CAF 0.17.6's dsl.hpp calls an undefined FAIL(...) in test_coordinator_fixture::request; give it one.
#ifndef FAIL
#define FAIL(msg) CAF_FAIL(msg)
#endif
#include "caf/test/dsl.hpp"
