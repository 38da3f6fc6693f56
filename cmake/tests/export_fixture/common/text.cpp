#include "text.h"

#include "gpu.h"

namespace {
const char *const kPrefix = "value=";
} // namespace

std::string fixture_format(int v) { return kPrefix + std::to_string(v); }
