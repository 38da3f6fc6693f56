#pragma once

int toy_bonus(int v);
