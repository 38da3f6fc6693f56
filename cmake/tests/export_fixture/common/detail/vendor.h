#pragma once

inline int fixture_vendor_value(int v) { return v + 1; }
