//===- MetricCatalog.cpp - Profiling metrics known to AutoProf ------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The metric catalog for NVIDIA Hopper (sm_90 / sm_90a). Groups mirror the
// Nsight Compute sections of the same name; every metric collected through
// CUPTI is a name the Range Profiler accepts for GH100, and every metric
// named `launch__*` or `device__attribute_*` is computed from driver queries.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/MetricCatalog.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir::autoprof;
using llvm::ArrayRef;
using llvm::StringRef;

namespace {

constexpr MetricSource Cupti = MetricSource::Cupti;
constexpr MetricSource Driver = MetricSource::Driver;

//===----------------------------------------------------------------------===//
// sm_90 metric table
//===----------------------------------------------------------------------===//

constexpr MetricInfo Sm90Metrics[] = {
    // Speed of light.
    {"gpu__time_duration.sum", "ns",
     "Wall-clock duration of the kernel on the GPU; the cost every other "
     "metric helps to explain",
     Cupti},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "%",
     "Utilization of the busiest SM compute resource (issue, pipes, register "
     "file) relative to peak over elapsed time; near 100% means compute "
     "bound, low together with low memory throughput means latency bound",
     Cupti},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "%",
     "Utilization of the busiest memory resource (L1/TEX, L2, DRAM or their "
     "links) relative to peak over elapsed time; near 100% means memory bound",
     Cupti},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "%",
     "Fraction of peak DRAM (HBM) bandwidth used over the kernel's duration; "
     "near 100% means DRAM bandwidth bound",
     Cupti},
    {"lts__throughput.avg.pct_of_peak_sustained_elapsed", "%",
     "Utilization of the L2 cache slices relative to peak over elapsed time; "
     "high while DRAM throughput is low means L2 bandwidth bound despite good "
     "reuse",
     Cupti},
    {"l1tex__throughput.avg.pct_of_peak_sustained_active", "%",
     "Utilization of the L1/TEX cache and shared memory relative to peak over "
     "the cycles the unit was active; high values point to L1 or shared "
     "memory bandwidth limits such as bank conflicts or scattered accesses",
     Cupti},
    {"gpc__cycles_elapsed.max", "cycles",
     "GPU clock cycles elapsed over the kernel (slowest GPC); the duration in "
     "cycles, independent of clock frequency",
     Cupti},
    {"sm__cycles_active.avg", "cycles",
     "Average cycles per SM with at least one warp resident; well below the "
     "elapsed cycles means SMs sat idle (too few blocks, tail or imbalance)",
     Cupti},
    {"sm__cycles_elapsed.avg.per_second", "Hz",
     "Average SM clock frequency during the kernel; below the boost clock "
     "suggests power or thermal throttling",
     Cupti},
    {"dram__bytes_read.sum", "bytes",
     "Bytes read from device memory (HBM); with the duration and FLOP counts "
     "it gives achieved bandwidth and arithmetic intensity for a roofline",
     Cupti},
    {"dram__bytes_write.sum", "bytes",
     "Bytes written to device memory; far more than the kernel's output size "
     "suggests register spills, redundant stores or L2 write-back thrashing",
     Cupti},

    // Memory workload analysis.
    {"dram__bytes.sum.per_second", "bytes/s",
     "Achieved DRAM bandwidth, reads plus writes; compare with the device's "
     "HBM peak to see how much bandwidth headroom remains",
     Cupti},
    {"gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed",
     "%",
     "Internal activity of the busiest cache or DRAM unit relative to its "
     "peak (Nsight's Mem Busy); high means a memory unit itself is saturated",
     Cupti},
    {"sm__memory_throughput.avg.pct_of_peak_sustained_elapsed", "%",
     "Utilization of the SM's memory instruction pipelines (LSU, MIO, shared "
     "memory) relative to peak (Nsight's Mem Pipes Busy); high means the SMs "
     "cannot issue memory instructions any faster",
     Cupti},
    {"lts__t_sector_hit_rate.pct", "%",
     "Share of L2 sector lookups that hit; low values with heavy DRAM traffic "
     "mean poor reuse or a working set larger than L2",
     Cupti},
    {"l1tex__t_sector_hit_rate.pct", "%",
     "Share of L1/TEX sector lookups that hit; low values mean little reuse "
     "within an SM, so most requests travel to L2",
     Cupti},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sectors",
     "32-byte sectors requested by global loads; divided by the load requests "
     "it gives sectors per request (4 for coalesced 4-byte accesses, up to 32 "
     "when fully scattered)",
     Cupti},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "requests",
     "Global load requests sent to L1/TEX (about one per warp-level load); "
     "the denominator of the sectors-per-request coalescing ratio",
     Cupti},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "sectors",
     "32-byte sectors written by global stores; many sectors per store "
     "request means uncoalesced or strided stores",
     Cupti},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "requests",
     "Global store requests sent to L1/TEX (about one per warp-level store); "
     "the denominator of the store coalescing ratio",
     Cupti},
    {"smsp__sass_data_bytes_mem_global_op_ld.sum", "bytes",
     "Bytes the warps' global load instructions ask for (each active lane's "
     "access width); a 32nd of it is the sectors the loads would fetch if "
     "every byte of a sector were used: 4 per request for 4-byte lanes, 16 "
     "for 128-bit vectors",
     Cupti},
    {"smsp__sass_data_bytes_mem_global_op_st.sum", "bytes",
     "Bytes the warps' global store instructions write; against the store "
     "sectors it tells how much of each written sector the stores use",
     Cupti},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "conflicts",
     "Shared memory bank conflicts caused by shared loads (LDS, LDSM); each "
     "one serializes part of a warp's access, fix with padding or swizzling",
     Cupti},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "conflicts",
     "Shared memory bank conflicts caused by shared stores (STS, STSM); each "
     "one serializes part of a warp's access, fix with padding or swizzling",
     Cupti},
    {"lts__d_atomic_input_cycles_active.max.pct_of_peak_sustained_elapsed", "%",
     "Cycles the busiest L2 slice's atomic unit takes input, relative to the "
     "elapsed cycles; near its peak, atomic updates to the addresses that "
     "slice holds queue behind one another (contention on few addresses)",
     Cupti},
    {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "sectors",
     "Sectors read from thread-local memory, mostly register spill reloads "
     "and dynamically indexed local arrays; nonzero usually means register "
     "pressure",
     Cupti},

    // Occupancy.
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "%",
     "Achieved occupancy: resident warps per active cycle as a fraction of "
     "the SM maximum; far below the theoretical occupancy means imbalance "
     "between blocks or a long tail",
     Cupti},
    {"sm__warps_active.avg.per_cycle_active", "warps",
     "Average warps resident on an SM per active cycle (achieved active "
     "warps per SM)",
     Cupti},
    {"launch__occupancy_limit_registers", "blocks",
     "Blocks per SM allowed by register use (registers per thread times block "
     "size against the 64K-register file); the smallest limit sets "
     "theoretical occupancy",
     Driver},
    {"launch__occupancy_limit_shared_mem", "blocks",
     "Blocks per SM allowed by shared memory per block (static, dynamic and "
     "driver-reserved) against the configured carveout",
     Driver},
    {"launch__occupancy_limit_warps", "blocks",
     "Blocks per SM allowed by the SM's warp slots (64 on sm_90) given the "
     "block size",
     Driver},
    {"launch__occupancy_limit_blocks", "blocks",
     "Hardware limit on resident blocks per SM (32 on sm_90); binds only for "
     "small blocks",
     Driver},
    {"launch__occupancy_limit_barriers", "blocks",
     "Blocks per SM allowed by the number of named barriers each block uses; "
     "binds only for kernels that use many barriers",
     Driver},
    {"device__attribute_max_warps_per_multiprocessor", "warps",
     "Maximum resident warps per SM on the device (64 on sm_90); theoretical "
     "occupancy is the limiting block count times warps per block over this",
     Driver},

    // Launch statistics.
    {"launch__grid_size", "blocks",
     "Thread blocks in the grid; fewer blocks than SMs leaves SMs idle for "
     "the whole kernel",
     Driver},
    {"launch__block_size", "threads",
     "Threads per block; a size that is not a multiple of 32 wastes lanes, "
     "and the size sets the warp-slot occupancy limit",
     Driver},
    {"launch__registers_per_thread", "registers",
     "Registers allocated per thread; above 32 the register file caps "
     "occupancy below 100%, and near the 255 maximum the compiler spills",
     Driver},
    {"launch__shared_mem_per_block_static", "bytes",
     "Statically declared shared memory per block (__shared__ arrays sized "
     "at compile time)",
     Driver},
    {"launch__shared_mem_per_block_dynamic", "bytes",
     "Dynamic shared memory per block requested at launch", Driver},
    {"launch__shared_mem_per_block_driver", "bytes",
     "Shared memory the driver reserves per block (1 KiB on sm_90), counted "
     "against the SM's capacity",
     Driver},
    {"launch__shared_mem_config_size", "bytes",
     "Shared memory carveout configured per SM for the launch; the rest of "
     "the unified L1/shared array is L1 cache, so larger carveouts fit more "
     "blocks but shrink L1",
     Driver},
    {"launch__cluster_size", "blocks",
     "Thread blocks per thread block cluster; 0 or 1 when the kernel is "
     "launched without clusters",
     Driver},
    {"launch__sm_count", "SMs",
     "Streaming multiprocessors available to the launch; the reference for "
     "grid size and waves",
     Driver},
    {"launch__waves_per_multiprocessor", "waves",
     "Grid size divided by the blocks the whole GPU holds at once; a small "
     "fractional last wave (e.g. 1.1) leaves most SMs idle at the tail",
     Driver},

    // Scheduler statistics.
    {"smsp__issue_active.avg.pct_of_peak_sustained_active", "%",
     "Share of active cycles in which a scheduler issued an instruction; "
     "well below 100% means schedulers often had no eligible warp",
     Cupti},
    {"smsp__issue_inst0.avg.pct_of_peak_sustained_active", "%",
     "Share of active cycles in which a scheduler issued nothing because no "
     "warp was eligible; high means latency is not hidden, so raise "
     "occupancy or ILP or remove the dominant stall",
     Cupti},
    {"smsp__warps_active.avg.per_cycle_active", "warps",
     "Warps resident per scheduler per active cycle (at most 16 on sm_90); "
     "the pool of warps available to hide latency",
     Cupti},
    {"smsp__warps_eligible.avg.per_cycle_active", "warps",
     "Warps ready to issue per scheduler per active cycle; below 1 means the "
     "scheduler frequently has nothing to issue",
     Cupti},
    {"smsp__issue_active.avg.per_cycle_active", "inst/cycle",
     "Instructions issued per scheduler per active cycle (at most 1); the "
     "scheduler's issue rate",
     Cupti},
    {"smsp__warps_active.avg.peak_sustained", "warps",
     "Hardware maximum of resident warps per scheduler; the reference for "
     "the active and eligible warp counts",
     Cupti},

    // Warp state statistics.
    {"smsp__average_warp_latency_per_inst_issued.ratio", "cycles/inst",
     "Average cycles between two consecutive instructions of the same warp; "
     "the larger it is, the more warps are needed to keep schedulers busy",
     Cupti},
    {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
     "ratio",
     "cycles/inst",
     "Stall cycles per issued instruction waiting on L1TEX results (global, "
     "local, texture memory); dominant in memory-latency-bound kernels, "
     "improve locality or prefetch (cp.async, TMA)",
     Cupti},
    {"smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active."
     "ratio",
     "cycles/inst",
     "Stall cycles per issued instruction waiting on MIO results such as "
     "shared memory loads, special math or shuffles; high values point to "
     "bank conflicts or heavy transcendental use",
     Cupti},
    {"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
     "cycles/inst",
     "Stall cycles per issued instruction waiting at a block barrier "
     "(__syncthreads) for sibling warps; high means unbalanced work between "
     "warps or over-frequent synchronization",
     Cupti},
    {"smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio",
     "cycles/inst",
     "Stall cycles per issued instruction because the MIO instruction queue "
     "was full; shared memory or special-function pipes are saturated",
     Cupti},
    {"smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
     "cycles/inst",
     "Stall cycles per issued instruction because the local/global memory "
     "queue was full; too many small memory instructions, so vectorize loads "
     "or remove spills",
     Cupti},
    {"smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active."
     "ratio",
     "cycles/inst",
     "Stall cycles per issued instruction waiting for a busy math pipe (FMA, "
     "FP64, tensor); high with high pipe utilization means compute bound on "
     "that pipe",
     Cupti},
    {"smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
     "cycles/inst",
     "Stall cycles per issued instruction on fixed-latency dependencies; "
     "high values mean long dependency chains with little ILP",
     Cupti},
    {"smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio",
     "cycles/inst",
     "Cycles per issued instruction a warp was eligible but another warp was "
     "picked; high means surplus eligible warps, so occupancy can be traded "
     "for registers or shared memory",
     Cupti},
    {"smsp__average_warps_issue_stalled_no_instruction_per_issue_active."
     "ratio",
     "cycles/inst",
     "Stall cycles per issued instruction waiting for instruction fetch, "
     "typically instruction cache misses in very large or heavily unrolled "
     "kernels",
     Cupti},
    {"smsp__average_warps_issue_stalled_branch_resolving_per_issue_active."
     "ratio",
     "cycles/inst",
     "Stall cycles per issued instruction waiting for a branch target or "
     "divergence to resolve; high values point to heavy or divergent control "
     "flow",
     Cupti},
    {"smsp__average_warps_issue_stalled_membar_per_issue_active.ratio",
     "cycles/inst",
     "Stall cycles per issued instruction waiting on a memory fence "
     "(__threadfence, ordered atomics); reduce the number or scope of fences",
     Cupti},
    {"smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio",
     "cycles/inst",
     "Stall cycles per issued instruction waiting for warpgroup MMA (wgmma) "
     "operations to arrive; high means the tensor cores or their operand "
     "staging limit the kernel",
     Cupti},
    {"smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active."
     "ratio",
     "cycles/inst",
     "Stall cycles per issued instruction where a selected warp could not be "
     "dispatched to its pipe; normally small, high values mean pipeline "
     "conflicts",
     Cupti},

    // Compute workload analysis.
    {"sm__inst_executed.avg.per_cycle_active", "inst/cycle",
     "Warp instructions executed per SM per active cycle (IPC, at most 4); "
     "low IPC in a compute-heavy kernel means stalls dominate",
     Cupti},
    {"smsp__inst_executed.avg.per_cycle_active", "inst/cycle",
     "Warp instructions executed per scheduler per active cycle (at most 1)",
     Cupti},
    {"sm__instruction_throughput.avg.pct_of_peak_sustained_active", "%",
     "Utilization of the busiest SM instruction resource relative to peak "
     "over active cycles (Nsight's SM Busy); near 100% means issue or one "
     "pipe is saturated",
     Cupti},
    {"sm__inst_issued.avg.pct_of_peak_sustained_active", "%",
     "Issue slots used as a fraction of the SM's peak issue rate over active "
     "cycles",
     Cupti},
    {"sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active", "%",
     "FMA pipe instructions (FP32 add, multiply, fused multiply-add, IMAD) "
     "relative to the pipe's peak rate; high means FP32 throughput bound",
     Cupti},
    {"sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active", "%",
     "ALU pipe instructions (integer and logic ops, comparisons, conversions) "
     "relative to the pipe's peak rate; high means integer/index math bound",
     Cupti},
    {"sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active", "%",
     "FP64 pipe instructions relative to the pipe's peak rate; high means "
     "double-precision throughput bound",
     Cupti},
    {"sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active", "%",
     "Load/store unit instructions (global, local, shared memory) relative "
     "to the pipe's peak rate; high means memory instruction issue bound, so "
     "use wider vector accesses",
     Cupti},
    {"sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", "%",
     "Transcendental and conversion unit instructions (sin, exp, rsqrt, some "
     "int/float conversions) relative to peak; high suggests fast-math "
     "intrinsics or fewer special functions",
     Cupti},
    {"sm__inst_executed_pipe_tensor.avg.pct_of_peak_sustained_active", "%",
     "Tensor core instructions of all MMA kinds relative to the pipe's peak "
     "rate; zero means the kernel does not use tensor cores",
     Cupti},
    {"sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active",
     "%",
     "Warpgroup MMA (wgmma) instructions relative to peak; zero in a sm_90 "
     "GEMM means it uses the older mma.sync path instead of wgmma",
     Cupti},
    {"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "%",
     "Cycles the FMA pipe was busy as a fraction of active cycles, counting "
     "multi-cycle instructions; the truest measure of FP32 saturation",
     Cupti},
    {"sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active", "%",
     "Cycles the ALU pipe was busy as a fraction of active cycles; high "
     "means integer or logic work limits the kernel",
     Cupti},
    {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", "%",
     "Cycles the tensor pipe was busy as a fraction of active cycles; near "
     "100% means the kernel runs at tensor core peak",
     Cupti},

    // Instruction statistics.
    {"smsp__inst_executed.sum", "inst",
     "Warp-level instructions executed; the kernel's dynamic instruction "
     "count",
     Cupti},
    {"smsp__inst_issued.sum", "inst",
     "Warp-level instructions issued; slightly above the executed count is "
     "normal, a large gap means instruction replays",
     Cupti},
    {"smsp__thread_inst_executed_per_inst_executed.ratio", "threads",
     "Average active threads per executed warp instruction (at most 32); "
     "lower values mean branch divergence or partially filled warps",
     Cupti},
    {"smsp__thread_inst_executed_pred_on_per_inst_executed.ratio", "threads",
     "Average threads per executed warp instruction that were active and not "
     "predicated off; below the active-thread average means predication "
     "wastes lanes",
     Cupti},
    {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst",
     "FP32 fused multiply-add thread instructions executed with a true "
     "predicate; each is 2 FLOPs in a roofline",
     Cupti},
    {"sm__sass_thread_inst_executed_op_fadd_pred_on.sum", "inst",
     "FP32 add thread instructions executed with a true predicate; each is "
     "1 FLOP",
     Cupti},
    {"sm__sass_thread_inst_executed_op_fmul_pred_on.sum", "inst",
     "FP32 multiply thread instructions executed with a true predicate; each "
     "is 1 FLOP",
     Cupti},
    {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum", "inst",
     "FP64 fused multiply-add thread instructions executed with a true "
     "predicate; each is 2 FLOPs in a double-precision roofline",
     Cupti},
    {"sm__sass_thread_inst_executed_op_dadd_pred_on.sum", "inst",
     "FP64 add thread instructions executed with a true predicate; each is "
     "1 FLOP",
     Cupti},
    {"sm__sass_thread_inst_executed_op_dmul_pred_on.sum", "inst",
     "FP64 multiply thread instructions executed with a true predicate; each "
     "is 1 FLOP",
     Cupti},
    {"smsp__sass_inst_executed_op_global_ld.sum", "inst",
     "Warp-level global load instructions executed; many narrow loads per "
     "byte moved means accesses should be vectorized",
     Cupti},
    {"smsp__sass_inst_executed_op_global_st.sum", "inst",
     "Warp-level global store instructions executed; many narrow stores per "
     "byte moved means accesses should be vectorized",
     Cupti},
    {"smsp__sass_inst_executed_op_shared_ld.sum", "inst",
     "Warp-level shared memory load instructions executed; with the load "
     "bank conflicts it gives conflicts per shared load",
     Cupti},
    {"smsp__sass_inst_executed_op_shared_st.sum", "inst",
     "Warp-level shared memory store instructions executed; with the store "
     "bank conflicts it gives conflicts per shared store",
     Cupti},
};

//===----------------------------------------------------------------------===//
// sm_90 groups
//===----------------------------------------------------------------------===//

constexpr StringRef Sm90SpeedOfLight[] = {
    "gpu__time_duration.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "gpc__cycles_elapsed.max",
    "sm__cycles_active.avg",
    "sm__cycles_elapsed.avg.per_second",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
};

constexpr StringRef Sm90MemoryWorkloadAnalysis[] = {
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "dram__bytes.sum.per_second",
    "gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__t_sector_hit_rate.pct",
    "l1tex__t_sector_hit_rate.pct",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_data_bytes_mem_global_op_ld.sum",
    "smsp__sass_data_bytes_mem_global_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "lts__d_atomic_input_cycles_active.max.pct_of_peak_sustained_elapsed",
};

constexpr StringRef Sm90Occupancy[] = {
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__warps_active.avg.per_cycle_active",
    "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_warps",
    "launch__occupancy_limit_blocks",
    "launch__occupancy_limit_barriers",
    "launch__block_size",
    "device__attribute_max_warps_per_multiprocessor",
};

constexpr StringRef Sm90LaunchStats[] = {
    "launch__grid_size",
    "launch__block_size",
    "launch__registers_per_thread",
    "launch__shared_mem_per_block_static",
    "launch__shared_mem_per_block_dynamic",
    "launch__shared_mem_per_block_driver",
    "launch__shared_mem_config_size",
    "launch__cluster_size",
    "launch__sm_count",
    "launch__waves_per_multiprocessor",
    "launch__occupancy_limit_registers",
};

constexpr StringRef Sm90SchedulerStats[] = {
    "smsp__issue_active.avg.pct_of_peak_sustained_active",
    "smsp__issue_inst0.avg.pct_of_peak_sustained_active",
    "smsp__warps_active.avg.per_cycle_active",
    "smsp__warps_eligible.avg.per_cycle_active",
    "smsp__issue_active.avg.per_cycle_active",
    "smsp__warps_active.avg.peak_sustained",
};

constexpr StringRef Sm90WarpStateStats[] = {
    "smsp__average_warp_latency_per_inst_issued.ratio",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active."
    "ratio",
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_branch_resolving_per_issue_active."
    "ratio",
    "smsp__average_warps_issue_stalled_membar_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio",
};

constexpr StringRef Sm90ComputeWorkloadAnalysis[] = {
    "sm__inst_executed.avg.per_cycle_active",
    "smsp__inst_executed.avg.per_cycle_active",
    "sm__instruction_throughput.avg.pct_of_peak_sustained_active",
    "sm__inst_issued.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_tensor.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active",
    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
};

constexpr StringRef Sm90InstructionStats[] = {
    "smsp__inst_executed.sum",
    "smsp__inst_issued.sum",
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
    "smsp__sass_inst_executed_op_shared_st.sum",
};

constexpr MetricGroupInfo Sm90Groups[] = {
    {"SpeedOfLight",
     "Achieved compute and memory throughput against the hardware peaks, "
     "with duration and clocks: the first look at whether a kernel is "
     "compute, memory or latency bound",
     Sm90SpeedOfLight},
    {"MemoryWorkloadAnalysis",
     "DRAM traffic, cache hit rates, coalescing and shared memory bank "
     "conflicts: where memory time goes and why",
     Sm90MemoryWorkloadAnalysis},
    {"Occupancy",
     "Achieved occupancy and the per-resource block limits (registers, "
     "shared memory, warps, blocks, barriers) that bound it",
     Sm90Occupancy},
    {"LaunchStats",
     "Launch configuration and per-thread resources from the driver: grid "
     "and block shape, registers, shared memory and waves",
     Sm90LaunchStats},
    {"SchedulerStats",
     "How often warp schedulers issue and how many warps are active and "
     "eligible: whether latency is being hidden",
     Sm90SchedulerStats},
    {"WarpStateStats",
     "Cycles per issued instruction that warps spend in each stall reason: "
     "what the schedulers are waiting on",
     Sm90WarpStateStats},
    {"ComputeWorkloadAnalysis",
     "Instructions per cycle and the utilization of each SM execution pipe "
     "(FMA, ALU, FP64, LSU, XU, tensor)",
     Sm90ComputeWorkloadAnalysis},
    {"InstructionStats",
     "Dynamic instruction counts: executed and issued instructions, active "
     "threads per instruction, floating-point and memory operation mix",
     Sm90InstructionStats},
};

constexpr StringRef SupportedChips[] = {"sm_90", "sm_90a"};

const MetricCatalog &getSm90Catalog() {
  static const MetricCatalog catalog(Sm90Groups, Sm90Metrics);
  return catalog;
}

} // namespace

//===----------------------------------------------------------------------===//
// MetricCatalog
//===----------------------------------------------------------------------===//

const MetricCatalog *MetricCatalog::forChip(StringRef chip) {
  if (chip == "sm_90" || chip == "sm_90a")
    return &getSm90Catalog();
  return nullptr;
}

ArrayRef<StringRef> MetricCatalog::supportedChips() { return SupportedChips; }

const MetricGroupInfo *MetricCatalog::lookupGroup(StringRef name) const {
  const auto *it = llvm::find_if(
      groupTable, [&](const MetricGroupInfo &g) { return g.name == name; });
  return it == groupTable.end() ? nullptr : it;
}

const MetricInfo *MetricCatalog::lookupMetric(StringRef name) const {
  const auto *it = llvm::find_if(
      metricTable, [&](const MetricInfo &m) { return m.name == name; });
  return it == metricTable.end() ? nullptr : it;
}

std::vector<StringRef>
MetricCatalog::expand(ArrayRef<StringRef> groupNames,
                      ArrayRef<StringRef> metricNames) const {
  std::vector<StringRef> result;
  llvm::DenseSet<StringRef> seen;
  // Results refer to the catalog's own strings, never to the caller's, so
  // they stay valid after the arguments are gone.
  auto add = [&](StringRef name) {
    if (const MetricInfo *info = lookupMetric(name))
      if (seen.insert(info->name).second)
        result.push_back(info->name);
  };
  for (StringRef groupName : groupNames)
    if (const MetricGroupInfo *group = lookupGroup(groupName))
      for (StringRef metricName : group->metricNames)
        add(metricName);
  for (StringRef metricName : metricNames)
    add(metricName);
  return result;
}

std::string MetricCatalog::suggest(StringRef name) const {
  if (name.empty())
    return "";
  // Allow roughly one edit per three characters, at least two; anything
  // further away is more likely a different word than a typo.
  unsigned maxDistance = std::max<unsigned>(2, (name.size() + 2) / 3);
  StringRef best;
  unsigned bestDistance = maxDistance + 1;
  auto consider = [&](StringRef candidate) {
    // A bound of 0 would mean "unbounded" to edit_distance; an exact match
    // cannot be beaten anyway.
    if (bestDistance == 0)
      return;
    unsigned distance =
        name.edit_distance_insensitive(candidate, /*AllowReplacements=*/true,
                                       /*MaxEditDistance=*/bestDistance - 1);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  };
  for (const MetricGroupInfo &group : groupTable)
    consider(group.name);
  for (const MetricInfo &metric : metricTable)
    consider(metric.name);
  return best.str();
}
