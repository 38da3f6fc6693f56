#pragma once

struct FixturePair {
  int first;
  int second;
};
