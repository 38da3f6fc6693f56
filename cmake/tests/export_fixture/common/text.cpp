#include "text.h"

#include "gpu.h"

std::string fixture_format(int v) { return "value=" + std::to_string(v); }
