//===- profiler-smoke.cpp - Smoke test of autoprof_profile_collect
//---------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A standalone program (no gtest, no LLVM) that exercises hardware-counter
// collection through the public C ABI on a real GPU:
//
//  - a streaming kernel (y = 2x + 1 over 2^25 floats) is profiled with a list
//    that mixes valid CUPTI metrics, an invalid name, a PC-sampling name and
//    driver-derived launch__/device__attribute_ metrics; DRAM bytes read and
//    the bytes the loads request must match the 128 MiB the kernel reads
//    (its loads' sectors a 32nd of it), the invalid names must come back
//    missing with a note, and the replay pass count must be positive;
//  - every metric group of the sm_90 catalog (lib/Profiling/MetricCatalog.cpp)
//    is collected on its own, reporting passes, seconds and what is missing;
//  - a shared-memory kernel checks the occupancy limits;
//  - argument errors and an all-invalid list.
//
// Every metric value is also printed as "METRIC <kernel> <name> <value>" so a
// run can be compared with Nsight Compute:
//
//   profiler-smoke                  # the checks
//   ncu --clock-control none --print-units base --csv --page raw
//       --metrics <names> profiler-smoke --launch-only
//
// --launch-only launches each kernel once through autoprof_time() without
// CUPTI, for ncu (--launch-only scale_v1 etc.: one launch shape with dynamic
// shared memory); --ncu-metrics prints the catalog's names for --metrics,
// --ncu-launch-metrics the launch__ names the variants are compared on. The
// last line is "N passed, M failed"; the exit status is 0 only when nothing
// failed.
//
// Build (from the repository root):
//   g++ -std=c++17 -fno-exceptions -O2 -Iinclude -I/usr/local/cuda/include
//       lib/Runtime/CUDA/*.cpp test/Runtime/profiler-smoke.cpp -ldl -lpthread
//       -o profiler-smoke
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/Runtime.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// scale_kernel(x, y, n): y[i] = 2 x[i] + 1 (12 registers, no shared
/// memory). tile_kernel(x, y, n): 16 KiB of static shared memory, one
/// barrier, 32-way bank conflicts by construction.
const char *const KernelPtx = R"PTX(
.version 9.0
.target sm_90
.address_size 64
.visible .entry scale_kernel(
	.param .u64 scale_kernel_param_0,
	.param .u64 scale_kernel_param_1,
	.param .u32 scale_kernel_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<3>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [scale_kernel_param_0];
	ld.param.u64 	%rd2, [scale_kernel_param_1];
	ld.param.u32 	%r2, [scale_kernel_param_2];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd3, %rd1;
	mul.wide.s32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.nc.f32 	%f1, [%rd5];
	fma.rn.f32 	%f2, %f1, 0f40000000, 0f3F800000;
	cvta.to.global.u64 	%rd6, %rd2;
	add.s64 	%rd7, %rd6, %rd4;
	st.global.f32 	[%rd7], %f2;
$L__BB0_2:
	ret;
}
.visible .entry tile_kernel(
	.param .u64 tile_kernel_param_0,
	.param .u64 tile_kernel_param_1,
	.param .u32 tile_kernel_param_2
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<8>;
	.reg .b32 	%r<15>;
	.reg .b64 	%rd<9>;
	.shared .align 4 .b8 _ZZ11tile_kernelE4tile[16384];
	ld.param.u64 	%rd1, [tile_kernel_param_0];
	ld.param.u64 	%rd2, [tile_kernel_param_1];
	ld.param.u32 	%r4, [tile_kernel_param_2];
	mov.u32 	%r5, %ntid.x;
	mov.u32 	%r6, %ctaid.x;
	mov.u32 	%r1, %tid.x;
	mad.lo.s32 	%r2, %r6, %r5, %r1;
	setp.ge.s32 	%p1, %r2, %r4;
	mov.f32 	%f7, 0f00000000;
	@%p1 bra 	$L__BB1_2;
	cvta.to.global.u64 	%rd3, %rd1;
	mul.wide.s32 	%rd4, %r2, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.nc.f32 	%f7, [%rd5];
$L__BB1_2:
	shl.b32 	%r7, %r1, 7;
	and.b32  	%r8, %r7, 16256;
	mov.u32 	%r9, _ZZ11tile_kernelE4tile;
	add.s32 	%r3, %r9, %r8;
	st.shared.f32 	[%r3], %f7;
	bar.sync 	0;
	@%p1 bra 	$L__BB1_4;
	xor.b32  	%r11, %r7, 128;
	and.b32  	%r12, %r11, 16256;
	add.s32 	%r14, %r9, %r12;
	ld.shared.f32 	%f4, [%r14];
	ld.shared.f32 	%f5, [%r3];
	add.f32 	%f6, %f5, %f4;
	cvta.to.global.u64 	%rd6, %rd2;
	mul.wide.s32 	%rd7, %r2, 4;
	add.s64 	%rd8, %rd6, %rd7;
	st.global.f32 	[%rd8], %f6;
$L__BB1_4:
	ret;
}
)PTX";

/// The sm_90 catalog's groups (lib/Profiling/MetricCatalog.cpp); keep in
/// sync by hand, this program links no LLVM.
struct Group {
  const char *name;
  std::vector<const char *> metrics;
};

const std::vector<Group> &catalogGroups() {
  static const std::vector<Group> groups = {
      {"SpeedOfLight",
       {"gpu__time_duration.sum",
        "sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "lts__throughput.avg.pct_of_peak_sustained_elapsed",
        "l1tex__throughput.avg.pct_of_peak_sustained_active",
        "gpc__cycles_elapsed.max", "sm__cycles_active.avg",
        "sm__cycles_elapsed.avg.per_second", "dram__bytes_read.sum",
        "dram__bytes_write.sum"}},
      {"MemoryWorkloadAnalysis",
       {"dram__bytes_read.sum", "dram__bytes_write.sum",
        "dram__bytes.sum.per_second",
        "gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_"
        "elapsed",
        "sm__memory_throughput.avg.pct_of_peak_sustained_elapsed",
        "lts__t_sector_hit_rate.pct", "l1tex__t_sector_hit_rate.pct",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "smsp__sass_data_bytes_mem_global_op_ld.sum",
        "smsp__sass_data_bytes_mem_global_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"}},
      {"Occupancy",
       {"sm__warps_active.avg.pct_of_peak_sustained_active",
        "sm__warps_active.avg.per_cycle_active",
        "launch__occupancy_limit_registers",
        "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_warps",
        "launch__occupancy_limit_blocks", "launch__occupancy_limit_barriers",
        "launch__block_size",
        "device__attribute_max_warps_per_multiprocessor"}},
      {"LaunchStats",
       {"launch__grid_size", "launch__block_size",
        "launch__registers_per_thread", "launch__shared_mem_per_block_static",
        "launch__shared_mem_per_block_dynamic",
        "launch__shared_mem_per_block_driver", "launch__shared_mem_config_size",
        "launch__cluster_size", "launch__sm_count",
        "launch__waves_per_multiprocessor",
        "launch__occupancy_limit_registers"}},
      {"SchedulerStats",
       {"smsp__issue_active.avg.pct_of_peak_sustained_active",
        "smsp__issue_inst0.avg.pct_of_peak_sustained_active",
        "smsp__warps_active.avg.per_cycle_active",
        "smsp__warps_eligible.avg.per_cycle_active",
        "smsp__issue_active.avg.per_cycle_active",
        "smsp__warps_active.avg.peak_sustained"}},
      {"WarpStateStats",
       {"smsp__average_warp_latency_per_inst_issued.ratio",
        "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
        "ratio",
        "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active."
        "ratio",
        "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
        "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio",
        "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
        "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_"
        "active.ratio",
        "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
        "smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio",
        "smsp__average_warps_issue_stalled_no_instruction_per_issue_active."
        "ratio",
        "smsp__average_warps_issue_stalled_branch_resolving_per_issue_active."
        "ratio",
        "smsp__average_warps_issue_stalled_membar_per_issue_active.ratio",
        "smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio",
        "smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active."
        "ratio"}},
      {"ComputeWorkloadAnalysis",
       {"sm__inst_executed.avg.per_cycle_active",
        "smsp__inst_executed.avg.per_cycle_active",
        "sm__instruction_throughput.avg.pct_of_peak_sustained_active",
        "sm__inst_issued.avg.pct_of_peak_sustained_active",
        "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active",
        "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active",
        "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active",
        "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active",
        "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active",
        "sm__inst_executed_pipe_tensor.avg.pct_of_peak_sustained_active",
        "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_"
        "active",
        "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"}},
      {"InstructionStats",
       {"smsp__inst_executed.sum", "smsp__inst_issued.sum",
        "smsp__thread_inst_executed_per_inst_executed.ratio",
        "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio",
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
        "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
        "sm__sass_thread_inst_executed_op_fmul_pred_on.sum",
        "sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
        "sm__sass_thread_inst_executed_op_dadd_pred_on.sum",
        "sm__sass_thread_inst_executed_op_dmul_pred_on.sum",
        "smsp__sass_inst_executed_op_global_ld.sum",
        "smsp__sass_inst_executed_op_global_st.sum",
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "smsp__sass_inst_executed_op_shared_st.sum"}},
  };
  return groups;
}

int passed = 0;
int failed = 0;

void check(bool ok, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

void check(bool ok, const char *format, ...) {
  std::printf("%s: ", ok ? "PASS" : "FAIL");
  va_list args;
  va_start(args, format);
  std::vprintf(format, args);
  va_end(args);
  std::printf("\n");
  std::fflush(stdout);
  ++(ok ? passed : failed);
}

const autoprof_metric_value *find(const autoprof_profile *profile,
                                  const char *name) {
  for (size_t i = 0; i < profile->num_metrics; ++i)
    if (std::strcmp(profile->metrics[i].name, name) == 0)
      return &profile->metrics[i];
  return nullptr;
}

bool collected(const autoprof_profile *profile, const char *name,
               double *value) {
  const autoprof_metric_value *metric = find(profile, name);
  if (!metric || !metric->collected)
    return false;
  *value = metric->value;
  return true;
}

void printProfile(const char *kernelName, const autoprof_profile *profile) {
  std::printf("  passes=%d seconds=%.3f metrics=%zu\n", profile->replay_passes,
              profile->seconds, profile->num_metrics);
  for (size_t i = 0; i < profile->num_metrics; ++i) {
    const autoprof_metric_value &metric = profile->metrics[i];
    if (metric.collected) {
      std::printf("METRIC %s %s %.9g%s%s\n", kernelName, metric.name,
                  metric.value, metric.note ? "   # " : "",
                  metric.note ? metric.note : "");
    } else {
      std::printf("MISSING %s %s   # %s\n", kernelName, metric.name,
                  metric.note ? metric.note : "(no note)");
    }
  }
  std::fflush(stdout);
}

/// Collects `names` and prints the result; null on failure (reported).
autoprof_profile *collect(autoprof_session *session, autoprof_kernel *kernel,
                          const autoprof_launch_spec &spec,
                          const char *kernelName,
                          const std::vector<const char *> &names,
                          const char *what) {
  std::printf("== %s (%s, %zu names)\n", what, kernelName, names.size());
  autoprof_profile *profile = nullptr;
  autoprof_status status = autoprof_profile_collect(
      session, kernel, &spec, names.data(), names.size(), /*seed=*/7, &profile);
  check(status == AUTOPROF_OK && profile, "%s: collect returns OK%s%s", what,
        status == AUTOPROF_OK ? "" : ": ",
        status == AUTOPROF_OK ? "" : autoprof_last_error(session));
  if (status != AUTOPROF_OK)
    return nullptr;
  printProfile(kernelName, profile);
  return profile;
}

constexpr unsigned ScaleN = 1u << 25;
constexpr unsigned ScaleBlock = 256;
constexpr unsigned TileN = 1u << 24;
constexpr unsigned TileBlock = 128;

autoprof_launch_spec makeSpec(std::vector<autoprof_param> &params, unsigned n,
                              unsigned block) {
  params.assign(3, autoprof_param());
  params[0].dtype = AUTOPROF_F32;
  params[0].count = n;
  params[0].role = AUTOPROF_ROLE_INPUT;
  params[1].dtype = AUTOPROF_F32;
  params[1].count = n;
  params[1].role = AUTOPROF_ROLE_OUTPUT;
  params[2].is_scalar = 1;
  params[2].dtype = AUTOPROF_I32;
  params[2].i = n;
  autoprof_launch_spec spec = {};
  spec.grid[0] = n / block;
  spec.grid[1] = spec.grid[2] = 1;
  spec.block[0] = block;
  spec.block[1] = spec.block[2] = 1;
  spec.params = params.data();
  spec.num_params = params.size();
  return spec;
}

/// The mixed list on the streaming kernel.
void testMixedList(autoprof_session *session, autoprof_kernel *kernel,
                   const autoprof_launch_spec &spec, const char *title) {
  std::vector<const char *> names = {
      "gpu__time_duration.sum",
      "dram__bytes_read.sum",
      "dram__bytes_write.sum",
      "sm__throughput.avg.pct_of_peak_sustained_elapsed",
      "smsp__inst_executed.sum",
      "not_a_metric__x.sum",
      "dram__bytes_read.not_a_rollup",
      "smsp__pcsamp_sample_count",
      "launch__registers_per_thread",
      "launch__grid_size",
      "launch__block_size",
      "launch__waves_per_multiprocessor",
      "launch__occupancy_limit_registers",
      "launch__occupancy_limit_shared_mem",
      "launch__occupancy_limit_warps",
      "launch__occupancy_limit_blocks",
      "launch__occupancy_limit_barriers",
      "launch__shared_mem_config_size",
      "launch__not_a_launch_metric",
      "device__attribute_max_warps_per_multiprocessor",
      "device__attribute_multiprocessor_count",
      "smsp__sass_data_bytes_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "dram__bytes_read.sum", // Duplicate, last: same value twice.
  };
  autoprof_profile *profile =
      collect(session, kernel, spec, "scale_kernel", names, title);
  if (!profile)
    return;
  check(profile->num_metrics == names.size(),
        "one result per requested name (%zu)", profile->num_metrics);
  bool sameOrder = profile->num_metrics == names.size();
  for (size_t i = 0; sameOrder && i < names.size(); ++i)
    sameOrder = std::strcmp(profile->metrics[i].name, names[i]) == 0;
  check(sameOrder, "results keep the requested order");
  check(profile->replay_passes > 0, "replay passes > 0 (%d)",
        profile->replay_passes);
  check(profile->seconds > 0, "seconds > 0 (%.3f)", profile->seconds);

  double value = 0;
  bool ok = collected(profile, "gpu__time_duration.sum", &value);
  check(ok && value > 10e3 && value < 100e6,
        "gpu__time_duration.sum plausible (%.0f ns)", value);
  double expectedRead = double(ScaleN) * 4;
  ok = collected(profile, "dram__bytes_read.sum", &value);
  check(
      ok && std::fabs(value - expectedRead) / expectedRead < 0.05,
      "dram__bytes_read.sum within 5%% of the %.0f bytes read (%.0f, %+.2f%%)",
      expectedRead, value, 100 * (value - expectedRead) / expectedRead);
  ok = collected(profile, "dram__bytes_write.sum", &value);
  check(ok && value > 0.5 * expectedRead && value < 1.1 * expectedRead,
        "dram__bytes_write.sum plausible (%.0f of %.0f written)", value,
        expectedRead);
  ok = collected(profile, "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                 &value);
  check(ok && value > 0 && value <= 100, "sm__throughput in (0, 100] (%.2f)",
        value);
  // The diagnosis's coalescing test (docs/diagnosis.md): the bytes the
  // loads ask for are the kernel's 4 bytes per element, and its coalesced
  // loads fetch a 32nd of them in sectors.
  ok = collected(profile, "smsp__sass_data_bytes_mem_global_op_ld.sum",
                 &value);
  check(ok && std::fabs(value - expectedRead) / expectedRead < 0.01,
        "smsp__sass_data_bytes_mem_global_op_ld.sum within 1%% of the %.0f "
        "bytes loaded (%.0f)",
        expectedRead, value);
  ok = collected(profile, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                 &value);
  check(ok && std::fabs(value - expectedRead / 32) / (expectedRead / 32) < 0.01,
        "coalesced loads fetch %.0f sectors, within 1%% (%.0f)",
        expectedRead / 32, value);
  double warps = double(ScaleN) / 32;
  ok = collected(profile, "smsp__inst_executed.sum", &value);
  check(ok && value >= 5 * warps && value <= 50 * warps,
        "smsp__inst_executed.sum plausible (%.0f for %.0f warps)", value,
        warps);

  const char *invalid[] = {
      "not_a_metric__x.sum", "dram__bytes_read.not_a_rollup",
      "smsp__pcsamp_sample_count", "launch__not_a_launch_metric"};
  for (const char *name : invalid) {
    const autoprof_metric_value *metric = find(profile, name);
    check(metric && !metric->collected && metric->value == 0 && metric->note &&
              *metric->note,
          "%s is missing with a note", name);
  }

  // Nsight Compute reports registers as allocated: 256 per warp, so per
  // thread the driver's count rounded up to a multiple of 8.
  autoprof_kernel_attributes attributes = {};
  autoprof_kernel_attributes_get(kernel, &attributes);
  int allocated = (attributes.registers_per_thread + 7) / 8 * 8;
  ok = collected(profile, "launch__registers_per_thread", &value);
  check(ok && value == allocated && attributes.registers_per_thread > 0,
        "launch__registers_per_thread = %.0f (driver uses %d, allocates %d)",
        value, attributes.registers_per_thread, allocated);
  ok = collected(profile, "launch__grid_size", &value);
  check(ok && value == spec.grid[0], "launch__grid_size = %.0f", value);
  ok = collected(profile, "launch__block_size", &value);
  check(ok && value == spec.block[0], "launch__block_size = %.0f", value);

  autoprof_device_facts facts = {};
  autoprof_device_facts_get(session, &facts);
  int blocksPerSm = 0;
  autoprof_kernel_occupancy(kernel, int(spec.block[0]), 0, &blocksPerSm);
  double expectedWaves =
      blocksPerSm > 0 && facts.sm_count > 0
          ? double(spec.grid[0]) / (double(blocksPerSm) * facts.sm_count)
          : -1;
  ok = collected(profile, "launch__waves_per_multiprocessor", &value);
  check(ok && std::fabs(value - expectedWaves) < 1e-9,
        "launch__waves_per_multiprocessor = %.4f (expected %.4f)", value,
        expectedWaves);
  double warpsLimit = 0;
  ok = collected(profile, "launch__occupancy_limit_warps", &warpsLimit);
  check(ok && warpsLimit == 64 / (ScaleBlock / 32),
        "launch__occupancy_limit_warps = %.0f", warpsLimit);
  // Values Nsight Compute 2025.3.1 reported for this launch on the H200.
  struct {
    const char *name;
    double ncu;
  } seenWithNcu[] = {{"launch__occupancy_limit_registers", 16},
                     {"launch__occupancy_limit_shared_mem", 32},
                     {"launch__occupancy_limit_blocks", 32},
                     {"launch__occupancy_limit_barriers", 32},
                     {"launch__shared_mem_config_size", 32768}};
  for (const auto &seen : seenWithNcu) {
    ok = collected(profile, seen.name, &value);
    check(ok && value == seen.ncu, "%s = %.0f (ncu: %.0f)", seen.name, value,
          seen.ncu);
  }
  double maxWarps = 0;
  ok = collected(profile, "device__attribute_max_warps_per_multiprocessor",
                 &maxWarps);
  check(ok && maxWarps == facts.max_threads_per_sm / 32,
        "device__attribute_max_warps_per_multiprocessor = %.0f", maxWarps);
  ok = collected(profile, "device__attribute_multiprocessor_count", &value);
  check(ok && value == facts.sm_count,
        "device__attribute_multiprocessor_count = %.0f", value);

  const autoprof_metric_value *first = &profile->metrics[1];
  const autoprof_metric_value *last = &profile->metrics[names.size() - 1];
  check(first->collected && last->collected && first->value == last->value,
        "a duplicated name gets the same value twice");
  autoprof_profile_free(profile);
}

void testGroups(autoprof_session *session, autoprof_kernel *kernel,
                const autoprof_launch_spec &spec) {
  int totalPasses = 0;
  double totalSeconds = 0;
  std::vector<const char *> all;
  for (const Group &group : catalogGroups()) {
    autoprof_profile *profile = collect(session, kernel, spec, "scale_kernel",
                                        group.metrics, group.name);
    if (!profile)
      continue;
    size_t got = 0;
    bool hasCupti = false;
    for (const char *name : group.metrics) {
      all.push_back(name);
      if (std::strncmp(name, "launch__", 8) != 0 &&
          std::strncmp(name, "device__attribute_", 18) != 0)
        hasCupti = true;
    }
    for (size_t i = 0; i < profile->num_metrics; ++i)
      got += profile->metrics[i].collected ? 1 : 0;
    std::printf("GROUP %s passes=%d seconds=%.3f collected=%zu/%zu\n",
                group.name, profile->replay_passes, profile->seconds, got,
                profile->num_metrics);
    check(hasCupti ? profile->replay_passes > 0 : profile->replay_passes == 0,
          "%s: pass count %d fits the group", group.name,
          profile->replay_passes);
    bool allMissingHaveNotes = true;
    for (size_t i = 0; i < profile->num_metrics; ++i)
      if (!profile->metrics[i].collected &&
          (!profile->metrics[i].note || !*profile->metrics[i].note))
        allMissingHaveNotes = false;
    check(allMissingHaveNotes, "%s: every missing metric has a note",
          group.name);
    totalPasses += profile->replay_passes;
    totalSeconds += profile->seconds;
    autoprof_profile_free(profile);
  }
  std::printf("GROUPS separately: %d passes, %.3f s\n", totalPasses,
              totalSeconds);
  autoprof_profile *profile =
      collect(session, kernel, spec, "scale_kernel", all, "all groups");
  if (profile) {
    std::printf("GROUP all passes=%d seconds=%.3f\n", profile->replay_passes,
                profile->seconds);
    check(profile->replay_passes > 0, "all groups: passes > 0 (%d)",
          profile->replay_passes);
    autoprof_profile_free(profile);
  }
}

void testTile(autoprof_session *session, autoprof_kernel *kernel,
              const autoprof_launch_spec &spec) {
  std::vector<const char *> names = {
      "gpu__time_duration.sum",
      "dram__bytes_read.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "smsp__inst_executed_op_shared_ld.sum",
      "smsp__inst_executed_op_shared_st.sum",
      "sm__warps_active.avg.pct_of_peak_sustained_active",
      "launch__registers_per_thread",
      "launch__shared_mem_per_block_static",
      "launch__shared_mem_per_block_dynamic",
      "launch__shared_mem_per_block_driver",
      "launch__shared_mem_config_size",
      "launch__occupancy_limit_registers",
      "launch__occupancy_limit_shared_mem",
      "launch__occupancy_limit_warps",
      "launch__occupancy_limit_blocks",
      "launch__occupancy_limit_barriers",
      "launch__waves_per_multiprocessor",
      "launch__cluster_size",
  };
  autoprof_profile *profile =
      collect(session, kernel, spec, "tile_kernel", names, "tile kernel");
  if (!profile)
    return;
  double value = 0;
  bool ok = collected(profile, "launch__shared_mem_per_block_static", &value);
  check(ok && value == 16384, "tile: static shared memory = %.0f", value);
  double driver = 0, config = 0, limit = 0;
  ok = collected(profile, "launch__shared_mem_per_block_driver", &driver) &&
       collected(profile, "launch__shared_mem_config_size", &config) &&
       collected(profile, "launch__occupancy_limit_shared_mem", &limit);
  check(ok && driver > 0 && limit == std::floor(config / (16384 + driver)),
        "tile: shared-memory limit %.0f = config %.0f / (16384 + %.0f)", limit,
        config, driver);
  check(ok && config == 233472 && limit == 13,
        "tile: config %.0f and limit %.0f as ncu reports (233472, 13)", config,
        limit);
  ok = collected(profile,
                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                 &value);
  check(ok && value > 0, "tile: store bank conflicts counted (%.0f)", value);
  autoprof_profile_free(profile);
}

/// Launch shapes of scale_kernel with dynamic shared memory, to compare the
/// driver-chosen shared memory carveout with Nsight Compute.
struct Variant {
  const char *label;
  unsigned block;
  unsigned dynamicShared;
};
constexpr Variant Variants[] = {{"scale_v1", 256, 3072},
                                {"scale_v2", 512, 15360},
                                {"scale_v4", 1024, 7168}};

const std::vector<const char *> &launchMetrics() {
  static const std::vector<const char *> names = {
      "launch__registers_per_thread",
      "launch__shared_mem_per_block_dynamic",
      "launch__shared_mem_config_size",
      "launch__occupancy_limit_registers",
      "launch__occupancy_limit_shared_mem",
      "launch__occupancy_limit_warps",
      "launch__occupancy_limit_blocks",
      "launch__occupancy_limit_barriers",
      "launch__waves_per_multiprocessor"};
  return names;
}

autoprof_launch_spec variantSpec(std::vector<autoprof_param> &params,
                                 const Variant &variant) {
  autoprof_launch_spec spec = makeSpec(params, ScaleN, variant.block);
  spec.dynamic_shared_bytes = variant.dynamicShared;
  return spec;
}

/// Driver-derived metrics only: no replay, and consistent with each other.
void testVariants(autoprof_session *session, autoprof_kernel *kernel) {
  for (const Variant &variant : Variants) {
    std::vector<autoprof_param> params;
    autoprof_launch_spec spec = variantSpec(params, variant);
    autoprof_profile *profile = collect(session, kernel, spec, variant.label,
                                        launchMetrics(), variant.label);
    if (!profile)
      continue;
    double config = 0, limit = 0;
    bool ok = collected(profile, "launch__shared_mem_config_size", &config) &&
              collected(profile, "launch__occupancy_limit_shared_mem", &limit);
    double perBlock = std::ceil((variant.dynamicShared + 1024) / 128.0) * 128;
    check(ok && profile->replay_passes == 0 &&
              limit == std::floor(config / perBlock),
          "%s: no passes; shared-memory limit %.0f = %.0f / %.0f",
          variant.label, limit, config, perBlock);
    autoprof_profile_free(profile);
  }
}

void testErrors(autoprof_session *session, autoprof_kernel *kernel,
                const autoprof_launch_spec &spec) {
  std::printf("== argument errors\n");
  const char *one[] = {"gpu__time_duration.sum"};
  autoprof_status status =
      autoprof_profile_collect(session, kernel, &spec, one, 1, 1, nullptr);
  check(status == AUTOPROF_ERROR_INVALID_ARGUMENT, "null out is rejected");
  autoprof_profile *profile = reinterpret_cast<autoprof_profile *>(1);
  status =
      autoprof_profile_collect(session, nullptr, &spec, one, 1, 1, &profile);
  check(status == AUTOPROF_ERROR_INVALID_ARGUMENT && profile == nullptr,
        "null kernel is rejected and *out is null (%s)",
        autoprof_last_error(session));
  status =
      autoprof_profile_collect(session, kernel, &spec, nullptr, 0, 1, &profile);
  check(status == AUTOPROF_OK && profile && profile->num_metrics == 0 &&
            profile->replay_passes == 0,
        "an empty list gives an empty profile");
  autoprof_profile_free(profile);
  autoprof_profile_free(nullptr);

  const char *bad[] = {"not_a_metric__x.sum", "sm__nope.avg", ""};
  profile = nullptr;
  status =
      autoprof_profile_collect(session, kernel, &spec, bad, 3, 1, &profile);
  bool allMissing = status == AUTOPROF_OK && profile;
  for (size_t i = 0; allMissing && i < profile->num_metrics; ++i)
    allMissing = !profile->metrics[i].collected && profile->metrics[i].note;
  check(allMissing && profile->replay_passes == 0,
        "an all-invalid list: everything missing, no passes");
  if (profile)
    printProfile("scale_kernel", profile);
  autoprof_profile_free(profile);
}

int launchOnly(
    autoprof_session *session,
    const std::vector<std::pair<autoprof_kernel *, autoprof_launch_spec>>
        &kernels) {
  autoprof_timing_options options = {};
  options.warmup = 0;
  options.min_repetitions = 1;
  options.max_repetitions = 1;
  options.time_budget_s = 1;
  options.flush_l2 = 0;
  options.seed = 7;
  for (const auto &entry : kernels) {
    autoprof_timing timing = {};
    autoprof_status status =
        autoprof_time(session, entry.first, &entry.second, &options, &timing);
    if (status != AUTOPROF_OK) {
      std::printf("launch failed: %s\n", autoprof_last_error(session));
      return 1;
    }
    std::printf("launched once: %.1f us\n", timing.median_us);
  }
  return 0;
}

} // namespace

/// Prints the catalog's metric names, comma-separated and each once, for
/// ncu's --metrics.
int printNcuMetrics(bool launchOnly) {
  if (launchOnly) {
    for (size_t i = 0; i < launchMetrics().size(); ++i)
      std::printf("%s%s", i ? "," : "", launchMetrics()[i]);
    std::printf("\n");
    return 0;
  }
  std::vector<std::string> seen;
  for (const Group &group : catalogGroups())
    for (const char *name : group.metrics) {
      bool known = false;
      for (const std::string &other : seen)
        known = known || other == name;
      if (known)
        continue;
      std::printf("%s%s", seen.empty() ? "" : ",", name);
      seen.push_back(name);
    }
  std::printf("\n");
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "--ncu-metrics") == 0)
    return printNcuMetrics(/*launchOnly=*/false);
  if (argc > 1 && std::strcmp(argv[1], "--ncu-launch-metrics") == 0)
    return printNcuMetrics(/*launchOnly=*/true);
  bool launchOnlyMode = argc > 1 && std::strcmp(argv[1], "--launch-only") == 0;
  const char *variantName = launchOnlyMode && argc > 2 ? argv[2] : nullptr;
  autoprof_session *session = nullptr;
  if (autoprof_session_create(0, &session) != AUTOPROF_OK) {
    std::printf("FAIL: no session: %s\n0 passed, 1 failed\n",
                autoprof_last_error(nullptr));
    return 1;
  }
  autoprof_device_facts facts = {};
  autoprof_device_facts_get(session, &facts);
  std::printf("device: %s, sm_%d%d, %d SMs, driver %d\n", facts.name,
              facts.compute_capability_major, facts.compute_capability_minor,
              facts.sm_count, facts.driver_version);

  autoprof_kernel *scale = nullptr;
  autoprof_kernel *tile = nullptr;
  size_t ptxSize = std::strlen(KernelPtx) + 1;
  if (autoprof_kernel_load(session, AUTOPROF_CODE_PTX, KernelPtx, ptxSize,
                           "scale_kernel", &scale) != AUTOPROF_OK ||
      autoprof_kernel_load(session, AUTOPROF_CODE_PTX, KernelPtx, ptxSize,
                           "tile_kernel", &tile) != AUTOPROF_OK) {
    std::printf("FAIL: kernel load: %s\n0 passed, 1 failed\n",
                autoprof_last_error(session));
    return 1;
  }
  std::vector<autoprof_param> scaleParams, tileParams;
  autoprof_launch_spec scaleSpec = makeSpec(scaleParams, ScaleN, ScaleBlock);
  autoprof_launch_spec tileSpec = makeSpec(tileParams, TileN, TileBlock);

  int status = 0;
  if (launchOnlyMode && variantName) {
    status = 1;
    for (const Variant &variant : Variants)
      if (std::strcmp(variant.label, variantName) == 0) {
        std::vector<autoprof_param> params;
        status = launchOnly(session, {{scale, variantSpec(params, variant)}});
      }
  } else if (launchOnlyMode) {
    status = launchOnly(session, {{scale, scaleSpec}, {tile, tileSpec}});
  } else {
    testMixedList(session, scale, scaleSpec, "mixed list");
    // The same again: names are validated once per process.
    testMixedList(session, scale, scaleSpec, "mixed list, second time");
    testGroups(session, scale, scaleSpec);
    testTile(session, tile, tileSpec);
    testVariants(session, scale);
    testErrors(session, scale, scaleSpec);
    std::printf("%d passed, %d failed\n", passed, failed);
    status = failed == 0 ? 0 : 1;
  }
  autoprof_kernel_unload(tile);
  autoprof_kernel_unload(scale);
  autoprof_session_destroy(session);
  return status;
}
