#pragma once

constexpr int kFixtureOnlyIf = 7;
