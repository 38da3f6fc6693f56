// The judge's HIP build of a CUDA-spelled solution file (judge.py): the vendor's half type.
#pragma once

#include <hip/hip_fp16.h>
