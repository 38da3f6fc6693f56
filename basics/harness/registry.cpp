#include "registry.h"

namespace kit::basics {

// Each defined in basics/<name>/reference.cpp.
const Problem &vector_add_problem();
const Problem &matrix_multiplication_problem();
const Problem &matrix_transpose_problem();
const Problem &color_inversion_problem();
const Problem &convolution_1d_problem();
const Problem &reverse_array_problem();
const Problem &relu_problem();
const Problem &leaky_relu_problem();
const Problem &rainbow_table_problem();
const Problem &matrix_copy_problem();
const Problem &count_array_element_problem();
const Problem &count_2d_array_element_problem();
const Problem &reduction_problem();
const Problem &softmax_problem();
const Problem &prefix_sum_problem();
const Problem &matrix_addition_problem();
const Problem &silu_problem();
const Problem &swiglu_problem();
const Problem &value_clipping_problem();
const Problem &interleave_problem();
const Problem &geglu_problem();
const Problem &rgb_to_grayscale_problem();
const Problem &sigmoid_problem();
const Problem &segmented_prefix_sum_problem();
const Problem &stream_compaction_problem();
const Problem &linear_recurrence_problem();
const Problem &gae_reverse_scan_problem();
const Problem &rms_normalization_problem();
const Problem &layer_normalization_problem();
const Problem &fused_residual_add_rms_norm_problem();
const Problem &categorical_cross_entropy_loss_problem();
const Problem &histogramming_problem();
const Problem &dot_product_problem();
const Problem &mean_squared_error_problem();
const Problem &count_3d_array_element_problem();
const Problem &subarray_sum_problem();
const Problem &subarray_sum_2d_problem(); // 2d_subarray_sum
const Problem &subarray_sum_3d_problem(); // 3d_subarray_sum
const Problem &radix_sort_problem();
const Problem &bfs_shortest_path_problem();
const Problem &all_pairs_shortest_paths_problem();

const std::vector<const Problem *> &all_problems() {
  static const std::vector<const Problem *> problems = {&vector_add_problem(),
                                                        &matrix_multiplication_problem(),
                                                        &matrix_transpose_problem(),
                                                        &color_inversion_problem(),
                                                        &convolution_1d_problem(),
                                                        &reverse_array_problem(),
                                                        &relu_problem(),
                                                        &leaky_relu_problem(),
                                                        &rainbow_table_problem(),
                                                        &matrix_copy_problem(),
                                                        &count_array_element_problem(),
                                                        &count_2d_array_element_problem(),
                                                        &reduction_problem(),
                                                        &softmax_problem(),
                                                        &prefix_sum_problem(),
                                                        &matrix_addition_problem(),
                                                        &silu_problem(),
                                                        &swiglu_problem(),
                                                        &value_clipping_problem(),
                                                        &interleave_problem(),
                                                        &geglu_problem(),
                                                        &rgb_to_grayscale_problem(),
                                                        &sigmoid_problem(),
                                                        &segmented_prefix_sum_problem(),
                                                        &stream_compaction_problem(),
                                                        &linear_recurrence_problem(),
                                                        &gae_reverse_scan_problem(),
                                                        &rms_normalization_problem(),
                                                        &layer_normalization_problem(),
                                                        &fused_residual_add_rms_norm_problem(),
                                                        &categorical_cross_entropy_loss_problem(),
                                                        &histogramming_problem(),
                                                        &dot_product_problem(),
                                                        &mean_squared_error_problem(),
                                                        &count_3d_array_element_problem(),
                                                        &subarray_sum_problem(),
                                                        &subarray_sum_2d_problem(),
                                                        &subarray_sum_3d_problem(),
                                                        &radix_sort_problem(),
                                                        &bfs_shortest_path_problem(),
                                                        &all_pairs_shortest_paths_problem()};
  return problems;
}

const Problem *find_problem(const std::string &name) {
  for (const Problem *p : all_problems())
    if (p->name == name)
      return p;
  return nullptr;
}

} // namespace kit::basics
