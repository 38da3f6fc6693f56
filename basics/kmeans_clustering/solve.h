// kmeans_clustering: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it; the
// build force-includes this header into kernel.cu, so a definition that drifts from it does not
// compile.
#pragma once

extern "C" void solve(const float *data_x, const float *data_y, int *labels,
                      const float *initial_centroid_x, const float *initial_centroid_y,
                      float *final_centroid_x, float *final_centroid_y, int sample_size, int k,
                      int max_iterations);
