// The FP32 GEMM (primitives/gemm.h) against a host model of its promise: every output element is
// the FMA chain acc = fma(a[k], b[k], acc) over ascending k from 0, so the comparison is bit for
// bit on random floats (any other order or a lost term shows). Every tile shape of
// gemm_tuning.h, both B layouts, batches with strides (and A shared across the batch), paired
// and stacked panels, the store and scale-and-add epilogues; sizes 1, 31, 32, 33, 63, 64, 65 and
// tile +- 1 in each dimension; leading dimensions wider than the matrices; odd leading dimensions
// and pointers one float off 16 bytes, which take the scalar loads. Outputs are poisoned first, and
// the elements between rows (ldc > cols) must keep their poison. Depth parts (the depth's slices
// dealt round-robin to partial products summed in part order) against the same model per part;
// split launches (launch_split: the parts' planes in scratch, summed before the epilogue) against
// the same model for every tile class, and bit for bit against depth parts with their planes summed
// in order.
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "primitives/gemm.h"
#include "primitives/gemm_tuning.h"
#include "testing/test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using kit::gemm::BLayout;
using kit::gemm::Panels;

// The paired panels' combination for the test: first * second + first, rounded step by step.
struct PairedProduct {
  float *c;
  std::size_t ldc;
  std::size_t batch_stride;
  __device__ float *at(int batch, int row, int col) const {
    return c + static_cast<std::size_t>(batch) * batch_stride +
           static_cast<std::size_t>(row) * ldc + col;
  }
  __device__ float operator()(float first, float second, const float *) const {
    return __fadd_rn(__fmul_rn(first, second), first);
  }
  bool vector_ok() const {
    return kit::gemm::aligned_16(c) && ldc % 4 == 0 && batch_stride % 4 == 0;
  }
};

enum class Kind { Store, ScaleAdd, Paired, Stacked };

struct Geometry {
  int rows, cols, depth, batches;
  BLayout layout;
  Kind kind;
  int pad;       // extra floats per row of every operand (leading dimension = width + pad)
  int misalign;  // floats added to every pointer (1: not 16-byte aligned)
  bool share_a;  // A's batch stride 0
  int split = 0; // stacked panels: the first panel's column count
  int parts = 0; // > 0: launch_split() with that many depth parts (0: launch())
};

std::string describe(const Geometry &g, const char *shape) {
  char text[200];
  std::snprintf(text, sizeof text, "%s %s %s rows=%d cols=%d depth=%d batches=%d pad=%d off=%d%s",
                shape, g.layout == BLayout::DepthByCols ? "A*B" : "A*B^T",
                g.kind == Kind::Store      ? "store"
                : g.kind == Kind::ScaleAdd ? "scale-add"
                : g.kind == Kind::Paired   ? "paired"
                                           : "stacked",
                g.rows, g.cols, g.depth, g.batches, g.pad, g.misalign,
                g.share_a ? " shared-A" : "");
  if (g.kind == Kind::Stacked)
    std::snprintf(text + std::strlen(text), sizeof text - std::strlen(text), " split=%d", g.split);
  if (g.parts > 0)
    std::snprintf(text + std::strlen(text), sizeof text - std::strlen(text), " split-parts=%d",
                  g.parts);
  return text;
}

float random_float(std::mt19937 &rng) {
  return std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
}

template <class Shape>
void check_one(kit::test::Checker &check, std::mt19937 &rng, const Geometry &g, const char *name) {
  const bool paired = g.kind == Kind::Paired;
  const bool two_panels = paired || g.kind == Kind::Stacked;
  const std::size_t lda = g.depth + g.pad;
  const std::size_t a_stride = g.share_a ? 0 : static_cast<std::size_t>(g.rows) * lda;
  const int b_outer = g.layout == BLayout::DepthByCols ? g.depth : g.cols;
  const int b_inner = g.layout == BLayout::DepthByCols ? g.cols : g.depth;
  const std::size_t ldb = b_inner + g.pad;
  const std::size_t b_stride = static_cast<std::size_t>(b_outer) * ldb;
  const std::size_t ldc = g.cols + g.pad;
  const std::size_t c_stride = static_cast<std::size_t>(g.rows) * ldc;
  const std::size_t a_count =
      g.share_a ? static_cast<std::size_t>(g.rows) * lda : a_stride * g.batches;
  const std::size_t b_count = b_stride * g.batches, c_count = c_stride * g.batches;

  std::vector<float> a(a_count), b(b_count), b2(two_panels ? b_count : 0), c0(c_count);
  for (float &x : a)
    x = random_float(rng);
  for (float &x : b)
    x = random_float(rng);
  for (float &x : b2)
    x = random_float(rng);
  for (float &x : c0)
    x = random_float(rng);
  const float scale = 0.375f;

  // Stacked panels share B's leading dimension: each is allocated full width and only its own
  // columns (the first split, or the first cols - split) are read.
  auto b_at = [&](const std::vector<float> &panel, int z, int k, int col) {
    const std::size_t base = z * b_stride;
    return g.layout == BLayout::DepthByCols ? panel[base + k * ldb + col]
                                            : panel[base + col * ldb + k];
  };
  // launch_split(): slice t (kTileDepth deep) of the depth goes to part t % parts, each part its
  // own chain from 0, the parts summed in part order before the epilogue. One part: one chain.
  const int parts = g.parts > 0 ? g.parts : 1;
  std::vector<float> partial(parts);
  std::vector<float> want(c0);
  for (int z = 0; z < g.batches; ++z)
    for (int r = 0; r < g.rows; ++r)
      for (int col = 0; col < g.cols; ++col) {
        float second = 0.f;
        std::fill(partial.begin(), partial.end(), 0.f);
        for (int k = 0; k < g.depth; ++k) {
          const float x = a[z * a_stride + r * lda + k];
          float &acc = partial[(k / Shape::kTileDepth) % parts];
          if (g.kind == Kind::Stacked)
            acc = std::fma(x, col < g.split ? b_at(b, z, k, col) : b_at(b2, z, k, col - g.split),
                           acc);
          else
            acc = std::fma(x, b_at(b, z, k, col), acc);
          if (paired)
            second = std::fma(x, b_at(b2, z, k, col), second);
        }
        volatile float sum = partial[0];
        for (int p = 1; p < parts; ++p)
          sum = sum + partial[p];
        const float first = sum;
        float &out = want[z * c_stride + r * ldc + col];
        // Each step rounded on its own (volatile: no contraction into a fused multiply-add).
        if (g.kind == Kind::Store || g.kind == Kind::Stacked) {
          out = first;
        } else if (g.kind == Kind::ScaleAdd) {
          const volatile float scaled = scale * first;
          out = out + scaled;
        } else {
          const volatile float product = first * second;
          out = product + first;
        }
      }

  const std::size_t off = g.misalign;
  kit::test::DeviceBuffer<float> d_a(a_count + off), d_b(b_count + off),
      d_b2(two_panels ? b_count + off : 1), d_c(c_count + off);
  std::vector<float> shifted;
  auto upload = [&](kit::test::DeviceBuffer<float> &d, const std::vector<float> &h) {
    shifted.assign(off, 0.f);
    shifted.insert(shifted.end(), h.begin(), h.end());
    d.upload(shifted);
  };
  upload(d_a, a);
  upload(d_b, b);
  if (two_panels)
    upload(d_b2, b2);
  if (g.kind == Kind::ScaleAdd)
    upload(d_c, c0);
  else
    d_c.poison();

  kit::gemm::Operands ops;
  ops.a = d_a.get() + off;
  ops.lda = lda;
  ops.a_batch_stride = a_stride;
  ops.b = d_b.get() + off;
  ops.ldb = ldb;
  ops.b_batch_stride = b_stride;
  ops.b_second = two_panels ? d_b2.get() + off : nullptr;
  ops.stack_split = g.split;
  ops.rows = g.rows;
  ops.cols = g.cols;
  ops.depth = g.depth;
  ops.batches = g.batches;
  float *const c = d_c.get() + off;
  constexpr BLayout kRowMajor = BLayout::DepthByCols, kTransposed = BLayout::ColsByDepth;
  // The split launches, each with its own scratch: poisoned, so a plane it fails to write shows.
  kit::gpu::DeviceScratch scratch;
  if (g.parts > 0) {
    const std::size_t planes = static_cast<std::size_t>(g.batches) * g.parts;
    void *const planes_memory =
        scratch.reserve(planes * g.rows * g.cols * sizeof(float) + sizeof(float));
    GPU_CHECK(cudaMemset(planes_memory, 0xFF, scratch.capacity())); // NaN
  }
  constexpr int kMultiprocessors = 4;
  if (g.parts > 0) {
    if (g.kind == Kind::Store) {
      const kit::gemm::Store e{c, ldc, c_stride};
      if (g.layout == kRowMajor)
        kit::gemm::launch_split<Shape, kRowMajor>(ops, e, g.parts, scratch, kMultiprocessors,
                                                  nullptr);
      else
        kit::gemm::launch_split<Shape, kTransposed>(ops, e, g.parts, scratch, kMultiprocessors,
                                                    nullptr);
    } else if (g.kind == Kind::ScaleAdd) {
      const kit::gemm::ScaleAdd e{c, ldc, c_stride, scale};
      if (g.layout == kRowMajor)
        kit::gemm::launch_split<Shape, kRowMajor>(ops, e, g.parts, scratch, kMultiprocessors,
                                                  nullptr);
      else
        kit::gemm::launch_split<Shape, kTransposed>(ops, e, g.parts, scratch, kMultiprocessors,
                                                    nullptr);
    } else if (g.kind == Kind::Stacked) {
      const kit::gemm::StackedStore e{c, ldc, c_stride, c + g.split, ldc, c_stride, g.split};
      if (g.layout == kRowMajor)
        kit::gemm::launch_split<Shape, kRowMajor, Panels::Stacked>(ops, e, g.parts, scratch,
                                                                   kMultiprocessors, nullptr);
      else
        kit::gemm::launch_split<Shape, kTransposed, Panels::Stacked>(ops, e, g.parts, scratch,
                                                                     kMultiprocessors, nullptr);
    } else {
      check.expect(false, "split launches do not take paired panels");
    }
  } else if (g.kind == Kind::Store) {
    const kit::gemm::Store e{c, ldc, c_stride};
    if (g.layout == kRowMajor)
      kit::gemm::launch<Shape, kRowMajor>(ops, e, nullptr);
    else
      kit::gemm::launch<Shape, kTransposed>(ops, e, nullptr);
  } else if (g.kind == Kind::ScaleAdd) {
    const kit::gemm::ScaleAdd e{c, ldc, c_stride, scale};
    if (g.layout == kRowMajor)
      kit::gemm::launch<Shape, kRowMajor>(ops, e, nullptr);
    else
      kit::gemm::launch<Shape, kTransposed>(ops, e, nullptr);
  } else if (g.kind == Kind::Stacked) {
    // The second panel's outputs land beside the first's, so the expected layout is Store's.
    const kit::gemm::StackedStore e{c, ldc, c_stride, c + g.split, ldc, c_stride, g.split};
    if (g.layout == kRowMajor)
      kit::gemm::launch<Shape, kRowMajor, Panels::Stacked>(ops, e, nullptr);
    else
      kit::gemm::launch<Shape, kTransposed, Panels::Stacked>(ops, e, nullptr);
  } else {
    if constexpr (Shape::kSubCols % 2 == 0) {
      const PairedProduct e{c, ldc, c_stride};
      if (g.layout == kRowMajor)
        kit::gemm::launch<Shape, kRowMajor, Panels::Paired>(ops, e, nullptr);
      else
        kit::gemm::launch<Shape, kTransposed, Panels::Paired>(ops, e, nullptr);
    }
  }
  GPU_CHECK(cudaDeviceSynchronize());
  std::vector<float> got_all = d_c.download();
  int bad = 0;
  std::size_t first_bad = 0;
  for (int z = 0; z < g.batches; ++z)
    for (int r = 0; r < g.rows; ++r)
      for (int col = 0; col < g.cols; ++col) {
        const std::size_t i = z * c_stride + r * ldc + col;
        if (std::memcmp(&got_all[off + i], &want[i], sizeof(float)) != 0 && bad++ == 0)
          first_bad = i;
      }
  // The padding between rows is never written.
  if (g.kind != Kind::ScaleAdd && g.pad > 0) {
    std::uint32_t poison;
    std::memset(&poison, 0xA5, sizeof poison);
    for (int z = 0; z < g.batches; ++z)
      for (int r = 0; r < g.rows; ++r)
        for (std::size_t col = g.cols; col < ldc; ++col)
          if (std::memcmp(&got_all[off + z * c_stride + r * ldc + col], &poison, 4) != 0)
            ++bad;
  }
  const std::string what = describe(g, name);
  if (bad > 0)
    std::printf("  %s: %d wrong, first at %zu (got %.9g, want %.9g)\n", what.c_str(), bad,
                first_bad, got_all[off + first_bad], want[first_bad]);
  check.expect(bad == 0, what.c_str());
}

// One batch of packed operands: A rows x depth, B depth x cols or cols x depth as `layout` says.
kit::gemm::Operands packed_operands(const float *a, const float *b, int rows, int cols, int depth,
                                    BLayout layout) {
  kit::gemm::Operands ops;
  ops.a = a;
  ops.lda = depth;
  ops.b = b;
  ops.ldb = layout == BLayout::DepthByCols ? cols : depth;
  ops.rows = rows;
  ops.cols = cols;
  ops.depth = depth;
  return ops;
}

// The product of a (rows x depth) and b (B in `layout`) by depth parts on the device, one batch,
// the output's rows packed; the planes (poisoned first) summed on the host in part order, each
// addition rounded to FP32.
template <class Shape>
std::vector<float> depth_parts_then_sum(const std::vector<float> &a, const std::vector<float> &b,
                                        int rows, int cols, int depth, int parts, BLayout layout) {
  const std::size_t plane = static_cast<std::size_t>(rows) * cols;
  kit::test::DeviceBuffer<float> d_a(a.size()), d_b(b.size()), d_parts(plane * parts);
  d_a.upload(a);
  d_b.upload(b);
  d_parts.poison();
  kit::gemm::Operands ops = packed_operands(d_a.get(), d_b.get(), rows, cols, depth, layout);
  ops.depth_parts = parts;
  const kit::gemm::Store e{d_parts.get(), static_cast<std::size_t>(cols), plane};
  if (layout == BLayout::DepthByCols)
    kit::gemm::launch<Shape, BLayout::DepthByCols>(ops, e, nullptr);
  else
    kit::gemm::launch<Shape, BLayout::ColsByDepth>(ops, e, nullptr);
  GPU_CHECK(cudaDeviceSynchronize());
  const std::vector<float> planes = d_parts.download();
  std::vector<float> sum(planes.begin(), planes.begin() + plane);
  for (int p = 1; p < parts; ++p)
    for (std::size_t i = 0; i < plane; ++i) {
      volatile float added = sum[i] + planes[p * plane + i];
      sum[i] = added;
    }
  return sum;
}

// Elements whose bits differ.
int bitwise_differences(const std::vector<float> &x, const std::vector<float> &y) {
  int differ = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    differ += std::memcmp(&x[i], &y[i], sizeof(float)) != 0;
  return differ;
}

// Depth parts (Operands::depth_parts): each part's chain over its round-robin share of the depth
// slices, the parts' planes summed in part order, bit for bit against the host model of the
// chains.
template <class Shape>
void check_parts(kit::test::Checker &check, std::mt19937 &rng, int rows, int cols, int depth,
                 int parts, BLayout layout, const char *name) {
  const std::size_t plane = static_cast<std::size_t>(rows) * cols;
  std::vector<float> a(static_cast<std::size_t>(rows) * depth),
      b(static_cast<std::size_t>(depth) * cols);
  for (float &x : a)
    x = random_float(rng);
  for (float &x : b)
    x = random_float(rng);
  auto b_at = [&](int k, int col) {
    return layout == BLayout::DepthByCols ? b[static_cast<std::size_t>(k) * cols + col]
                                          : b[static_cast<std::size_t>(col) * depth + k];
  };
  std::vector<float> want(plane);
  std::vector<float> partial(parts);
  for (int r = 0; r < rows; ++r)
    for (int col = 0; col < cols; ++col) {
      std::fill(partial.begin(), partial.end(), 0.f);
      for (int k = 0; k < depth; ++k) {
        float &acc = partial[(k / Shape::kTileDepth) % parts];
        acc = std::fma(a[static_cast<std::size_t>(r) * depth + k], b_at(k, col), acc);
      }
      volatile float sum = partial[0];
      for (int p = 1; p < parts; ++p)
        sum = sum + partial[p];
      want[static_cast<std::size_t>(r) * cols + col] = sum;
    }
  const int bad = bitwise_differences(
      depth_parts_then_sum<Shape>(a, b, rows, cols, depth, parts, layout), want);
  char what[160];
  std::snprintf(what, sizeof what, "%s %s depth parts=%d rows=%d cols=%d depth=%d", name,
                layout == BLayout::DepthByCols ? "A*B" : "A*B^T", parts, rows, cols, depth);
  if (bad > 0)
    std::printf("  %s: %d wrong\n", what, bad);
  check.expect(bad == 0, what);
}

// launch_split() against depth parts with its planes summed on the host, bit for bit: the same
// order by construction (one batch, Store, packed output).
template <class Shape>
void check_split_matches_parts(kit::test::Checker &check, std::mt19937 &rng, int rows, int cols,
                               int depth, int parts, BLayout layout, const char *name) {
  const std::size_t plane = static_cast<std::size_t>(rows) * cols;
  std::vector<float> a(static_cast<std::size_t>(rows) * depth),
      b(static_cast<std::size_t>(depth) * cols);
  for (float &x : a)
    x = random_float(rng);
  for (float &x : b)
    x = random_float(rng);
  const std::vector<float> summed =
      depth_parts_then_sum<Shape>(a, b, rows, cols, depth, parts, layout);
  kit::test::DeviceBuffer<float> d_a(a.size()), d_b(b.size()), d_split(plane);
  d_a.upload(a);
  d_b.upload(b);
  d_split.poison();
  const kit::gemm::Operands ops = packed_operands(d_a.get(), d_b.get(), rows, cols, depth, layout);
  const kit::gemm::Store to_split{d_split.get(), static_cast<std::size_t>(cols), 0};
  kit::gpu::DeviceScratch scratch;
  if (layout == BLayout::DepthByCols)
    kit::gemm::launch_split<Shape, BLayout::DepthByCols>(ops, to_split, parts, scratch, 4, nullptr);
  else
    kit::gemm::launch_split<Shape, BLayout::ColsByDepth>(ops, to_split, parts, scratch, 4, nullptr);
  GPU_CHECK(cudaDeviceSynchronize());
  const int bad = bitwise_differences(summed, d_split.download());
  char what[160];
  std::snprintf(what, sizeof what, "%s %s split = depth parts summed in order, parts=%d %dx%dx%d",
                name, layout == BLayout::DepthByCols ? "A*B" : "A*B^T", parts, rows, cols, depth);
  if (bad > 0)
    std::printf("  %s: %d differ\n", what, bad);
  check.expect(bad == 0, what);
}

// launch_split() against the host model: parts 1, 2, 3 and 7; a depth that is not a multiple of
// parts x kTileDepth and one smaller than it (empty parts give zero planes); ragged sizes; both
// layouts; Store, ScaleAdd (reads the output first) and stacked panels; batches > 1.
template <class Shape>
void check_split(kit::test::Checker &check, std::mt19937 &rng, const char *name) {
  const int tr = Shape::kBlockRows, tc = Shape::kBlockCols, td = Shape::kTileDepth;
  for (BLayout layout : {BLayout::DepthByCols, BLayout::ColsByDepth})
    for (int parts : {1, 2, 3, 7}) {
      // Ragged depth (slices not a multiple of the parts, a partial last slice) and a depth with
      // fewer slices than parts.
      for (int depth : {parts * 3 * td + td + 5, parts * td - 3, 1}) {
        check_one<Shape>(check, rng, {33, 65, depth, 1, layout, Kind::Store, 0, 0, false, 0, parts},
                         name);
        check_one<Shape>(check, rng,
                         {tr + 1, tc - 1, depth, 2, layout, Kind::ScaleAdd, 1, 0, true, 0, parts},
                         name);
      }
      for (int s : {1, 31, 63, tr - 1, tr + 1, tc + 1})
        check_one<Shape>(check, rng,
                         {s, s + 4, 5 * td + 4, 1, layout, Kind::Store, 0, 0, false, 0, parts},
                         name);
      // Whole tiles (16-byte path), batches, padded and misaligned (scalar path).
      for (int misalign : {0, 1})
        check_one<Shape>(
            check, rng,
            {2 * tr, tc + 4, 8 * td, 3, layout, Kind::Store, 4, misalign, false, 0, parts}, name);
      check_one<Shape>(
          check, rng,
          {tr + 3, tc - 4, 6 * td + 4, 2, layout, Kind::ScaleAdd, 4, 0, false, 0, parts}, name);
      // Stacked panels with StackedStore: the split inside a tile, odd.
      for (int split : {tc / 2, tc + 3})
        check_one<Shape>(
            check, rng,
            {tr + 1, tc + 8, 4 * td + 4, 2, layout, Kind::Stacked, 0, 0, false, split, parts},
            name);
    }
  for (BLayout layout : {BLayout::DepthByCols, BLayout::ColsByDepth})
    for (int parts : {2, 3, 7})
      for (int depth : {5 * td + 3, parts * td - 1, 64 * td})
        check_split_matches_parts<Shape>(check, rng, tr + 1, tc + 5, depth, parts, layout, name);
}

template <class Shape>
void check_shape(kit::test::Checker &check, std::mt19937 &rng, const char *name) {
  const int tr = Shape::kBlockRows, tc = Shape::kBlockCols, td = Shape::kTileDepth;
  std::vector<int> sizes = {1, 31, 32, 33, 63, 64, 65};
  for (int s : {tr - 1, tr + 1, tc - 1, tc + 1})
    sizes.push_back(s);
  for (BLayout layout : {BLayout::DepthByCols, BLayout::ColsByDepth}) {
    // Each dimension through the sizes with the other two at awkward values.
    for (int s : sizes) {
      check_one<Shape>(check, rng, {s, 33, 2 * td + 3, 1, layout, Kind::Store, 0, 0, false}, name);
      check_one<Shape>(check, rng, {17, s, 64, 1, layout, Kind::Store, 0, 0, false}, name);
      check_one<Shape>(check, rng, {tr + 1, tc + 4, s, 1, layout, Kind::Store, 0, 0, false}, name);
    }
    // Whole tiles, 16-byte path; padded leading dimensions (multiple of 4: still vectors); odd
    // ones and misaligned pointers: scalar loads.
    for (int pad : {0, 4, 1})
      for (int misalign : {0, 1}) {
        check_one<Shape>(check, rng,
                         {2 * tr, 2 * tc, 4 * td, 3, layout, Kind::Store, pad, misalign, false},
                         name);
        check_one<Shape>(
            check, rng,
            {tr + 3, tc - 4, 3 * td + 4, 2, layout, Kind::ScaleAdd, pad, misalign, true}, name);
        if (Shape::kSubCols % 2 == 0)
          check_one<Shape>(
              check, rng,
              {tr + 5, tc / 2 + 4, 2 * td + 8, 2, layout, Kind::Paired, pad, misalign, false},
              name);
      }
    // Stacked panels: the split inside a tile, on a tile edge, odd (scalar loads), first panel of
    // one column, second of one column.
    for (int split : {tc / 2, tc, tc + 3, 1})
      for (int misalign : {0, 1})
        check_one<Shape>(
            check, rng,
            {tr + 1, tc + 8, 2 * td + 4, 2, layout, Kind::Stacked, 0, misalign, false, split},
            name);
    check_one<Shape>(check, rng, {33, tc + 5, 37, 1, layout, Kind::Stacked, 0, 0, false, tc + 4},
                     name);
    // Paired panels at awkward output widths (scalar path where cols % 4 != 0).
    if (Shape::kSubCols % 2 == 0)
      for (int cols : {1, 31, 33, tc / 2 - 1, tc / 2 + 1, tc + 1})
        check_one<Shape>(check, rng, {33, cols, 37, 1, layout, Kind::Paired, 0, 0, false}, name);
  }
}

} // namespace

int main() {
  kit::test::begin_gpu_test("gemm_test");
  kit::test::Checker check;
  std::mt19937 rng(20261128);
  check_shape<kit::gemm::TinyTile>(check, rng, "tiny");
  check_shape<kit::gemm::SmallTile>(check, rng, "small");
  check_shape<kit::gemm::MediumTile>(check, rng, "medium");
  check_shape<kit::gemm::LargeTile>(check, rng, "large");
  check_shape<kit::gemm::SlicedTile>(check, rng, "sliced");
  // Depth parts: more parts than slices, a ragged last slice, cuBLAS's four parts at N = 512.
  for (BLayout layout : {BLayout::DepthByCols, BLayout::ColsByDepth})
    for (int parts : {1, 2, 3, 4, 7})
      for (int depth : {1, 8, 31, 65, 512})
        check_parts<kit::gemm::SlicedTile>(check, rng, 65, 67, depth, parts, layout, "sliced");
  check_parts<kit::gemm::SmallTile>(check, rng, 70, 64, 100, 3, BLayout::DepthByCols, "small");
  // Split launches (depth parts summed before the epilogue), every tile class.
  check_split<kit::gemm::TinyTile>(check, rng, "tiny");
  check_split<kit::gemm::SmallTile>(check, rng, "small");
  check_split<kit::gemm::MediumTile>(check, rng, "medium");
  check_split<kit::gemm::LargeTile>(check, rng, "large");
  check_split<kit::gemm::SlicedTile>(check, rng, "sliced");
  // The rule's picks at the LeetGPU sizes (132 multiprocessors, an H100 SXM or H200).
  using kit::gemm::pick_tile;
  using kit::gemm::TileClass;
  check.expect(pick_tile(8192, 4096, 1, 132) == TileClass::Large, "pick 8192 x 4096");
  check.expect(pick_tile(256, 256, 32, 132) == TileClass::Small, "pick 32 x 256 x 256");
  check.expect(pick_tile(512, 512, 1, 132) == TileClass::Tiny, "pick 512 x 512");
  check.expect(pick_tile(512, 2 * 14336, 1, 132) == TileClass::Large, "pick 512 x 2 x 14336");
  check.expect(pick_tile(256, 4096 + 64, 1, 132) == TileClass::Small, "pick 256 x (4096 + 64)");
  check.expect(pick_tile(512, 4096, 1, 132) == TileClass::Small, "pick 512 x 4096");
  // The split planner's cost model at the same sizes: lora_linear's stacked product (33 large
  // tiles, 4 parts: 132 blocks), its adapter's product (depth 64: too shallow to split),
  // swiglu_mlp_block's down projection (64 large tiles, 2 parts: 128 blocks), a grid already full
  // (one part), a small output (the tiny tile).
  using kit::gemm::pick_split;
  auto plan_is = [&](kit::gemm::SplitPlan plan, TileClass tile, int parts) {
    return plan.tile == tile && plan.parts == parts;
  };
  check.expect(plan_is(pick_split(256, 4096 + 64, 1, 4096, 132), TileClass::Large, 4),
               "split 256 x (4096 + 64) x 4096");
  check.expect(plan_is(pick_split(256, 4096, 1, 64, 132), TileClass::Small, 1),
               "split 256 x 4096 x 64");
  check.expect(plan_is(pick_split(512, 4096, 1, 14336, 132), TileClass::Large, 2),
               "split 512 x 4096 x 14336");
  check.expect(plan_is(pick_split(8192, 4096, 1, 4096, 132), TileClass::Large, 1),
               "split 8192 x 4096 x 4096");
  check.expect(plan_is(pick_split(512, 512, 1, 256, 132), TileClass::Tiny, 1),
               "split 512 x 512 x 256");
  // Few outputs and a long depth: many parts of the tiny tile; batches that fill the device: none.
  check.expect(plan_is(pick_split(256, 64, 1, 4096, 132), TileClass::Tiny, 8),
               "split 256 x 64 x 4096");
  check.expect(plan_is(pick_split(256, 256, 32, 256, 132), TileClass::Medium, 1),
               "split 32 x 256 x 256 x 256");
  return check.finish("gemm_test");
}
