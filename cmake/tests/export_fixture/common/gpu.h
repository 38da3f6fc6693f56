// Fixture stand-in for the kit's vendor header: includes a nested project header and a system one.
#pragma once

#include "detail/vendor.h"
#include <cstdio>

inline int fixture_vendor_twice(int v) { return 2 * fixture_vendor_value(v); }
