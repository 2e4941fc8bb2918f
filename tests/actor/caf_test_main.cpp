// The CAF test engine and main(): compiled once, in this translation unit only (it is expensive).
#include "caf/test/unit_test_impl.hpp"
