// Declared here, defined in text.cpp: a library source the exporter must inline into main.cpp.
#pragma once

#include <string>

std::string fixture_format(int v);
