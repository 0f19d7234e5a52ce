/*
 * The names in summary.json, defined once for its writer (lib/report/json/summary_json.c) and its
 * reader (lib/report/json/summary_read.c), so that the two cannot drift apart: a key misspelt on one
 * side is a compile error, not a value silently read back as null. The meaning of every key is in
 * docs/summary.md; the schema number (HPRUN_SUMMARY_SCHEMA) changes whenever a key changes meaning
 * or disappears. Only names live here: no storage, nothing to free.
 */
#ifndef HPRUN_REPORT_SUMMARY_KEYS_H
#define HPRUN_REPORT_SUMMARY_KEYS_H

/* The file inside a session folder. */
#define HP__SUMMARY_FILE "summary.json"

/* The top-level object: the session. */
#define HP__K_SESSION_SCHEMA "schema"
#define HP__K_SESSION_VERSION "hprun_version"
#define HP__K_SESSION_NAME "name"
#define HP__K_SESSION_DIR "dir"
#define HP__K_SESSION_PLAN "plan"
#define HP__K_SESSION_COMPLETE "complete"
#define HP__K_SESSION_INTERRUPTED "interrupted"
#define HP__K_SESSION_ERROR "error"
#define HP__K_SESSION_EXIT_CODE "exit_code"
#define HP__K_SESSION_CAUSES "causes"
#define HP__K_SESSION_STARTED "started"
#define HP__K_SESSION_FINISHED "finished"
#define HP__K_SESSION_ORDER "order"
#define HP__K_SESSION_SEED "seed"
#define HP__K_SESSION_REPEAT "repeat"
#define HP__K_SESSION_WARMUP "warmup"
#define HP__K_SESSION_LOOKS "looks"
#define HP__K_SESSION_THRESHOLDS "thresholds"
#define HP__K_SESSION_BASELINE "baseline"
#define HP__K_SESSION_PEAKS "peaks" /* only with `roofline:` */
#define HP__K_SESSION_PASSES "passes"

/* causes[] items: why the session deserves its exit code (docs/ci.md). */
#define HP__K_CAUSE_KIND "kind"
#define HP__K_CAUSE_PASS "pass"
#define HP__K_CAUSE_TEXT "text"

/* thresholds {} */
#define HP__K_THRESHOLD_WARN "warn"
#define HP__K_THRESHOLD_FAIL "fail"
#define HP__K_THRESHOLD_ALPHA "alpha"

/* passes[] items. */
#define HP__K_PASS_NAME "name"
#define HP__K_PASS_MODE "mode"
#define HP__K_PASS_TOOL "tool"
#define HP__K_PASS_KERNEL "kernel"
#define HP__K_PASS_BASELINE "baseline"
#define HP__K_PASS_VARIANT "variant"
#define HP__K_PASS_REFERENCE "reference"
#define HP__K_PASS_EXPECT "expect"
#define HP__K_PASS_FLAG "flag"
#define HP__K_PASS_ADVICE "advice"
#define HP__K_PASS_STOPPED "stopped"
#define HP__K_PASS_VERDICT "verdict"
#define HP__K_PASS_METRICS "metrics"
#define HP__K_PASS_OVERHEAD "overhead"
#define HP__K_PASS_MEMORY "memory"
#define HP__K_PASS_CROSSCHECK "crosscheck"
#define HP__K_PASS_RUNS "runs"
#define HP__K_PASS_PROFILE "profile"
#define HP__K_PASS_PROFILE_CSV "profile_csv"
#define HP__K_PASS_ROOFLINE "roofline" /* only when the profile gave points */
/* The values of `expect`. */
#define HP__V_EXPECT_OK "ok"
#define HP__V_EXPECT_DISTORTED "distorted"

/* metrics[] items. */
#define HP__K_METRIC_NAME "name"
#define HP__K_METRIC_UNIT "unit"
#define HP__K_METRIC_BETTER "better"
#define HP__K_METRIC_TOLERANCE "tolerance"
#define HP__K_METRIC_ABS_TOLERANCE "abs_tolerance"
#define HP__K_METRIC_N "n"
#define HP__K_METRIC_MEDIAN "median"
#define HP__K_METRIC_MEAN "mean"
#define HP__K_METRIC_SD "sd"
#define HP__K_METRIC_MAD "mad"
#define HP__K_METRIC_CV "cv"
#define HP__K_METRIC_MIN "min"
#define HP__K_METRIC_MAX "max"
#define HP__K_METRIC_OUTLIERS "outliers"
#define HP__K_METRIC_OVERHEAD "overhead"
/* The values of `better`. */
#define HP__V_BETTER_HIGHER "higher"
#define HP__V_BETTER_LOWER "lower"

/* overhead {} of a metric, and of a pass (its primary metric's). */
#define HP__K_OVERHEAD_RATIO "ratio"
#define HP__K_OVERHEAD_PERCENT "percent"
#define HP__K_OVERHEAD_CI95 "ci95"
#define HP__K_OVERHEAD_P "p"
#define HP__K_OVERHEAD_SIGNIFICANT "significant"
#define HP__K_OVERHEAD_DELTA "delta"

/* memory {} of a pass and of a run (a run has no note or host peak, a pass no sample count). */
#define HP__K_MEMORY_MEAN "sampled_mean_mib"
#define HP__K_MEMORY_PEAK "sampled_peak_mib"
#define HP__K_MEMORY_NOTE "note"
#define HP__K_MEMORY_HOST_PEAK "host_peak_rss_kb"
#define HP__K_MEMORY_SAMPLES "samples"

/* crosscheck {} of a profiled pass. */
#define HP__K_CROSSCHECK_KERNEL "kernel"
#define HP__K_CROSSCHECK_AVG_MS "profiler_avg_ms"
#define HP__K_CROSSCHECK_CALLS "profiler_calls"
#define HP__K_CROSSCHECK_APP_LAUNCHES "app_launches"
#define HP__K_CROSSCHECK_APP_MEDIAN "app_median"
/* The whole profile's cross-check (lib/analyze/crosscheck.c); recomputed when read back. */
#define HP__K_CROSSCHECK_KERNEL_MS "kernel_ms"
#define HP__K_CROSSCHECK_LAUNCHES "launches"
#define HP__K_CROSSCHECK_SPAN_MS "span_ms"
#define HP__K_CROSSCHECK_ITERATIONS "iterations"
#define HP__K_CROSSCHECK_ITER_MS "kernel_ms_per_iteration"
#define HP__K_CROSSCHECK_BUSY "busy_fraction"
#define HP__K_CROSSCHECK_LAUNCH_BOUND "launch_bound"
#define HP__K_CROSSCHECK_NOTE "note"
#define HP__K_CROSSCHECK_PARTIAL "partial"
#define HP__K_CROSSCHECK_TRACE_SPAN_MS "trace_span_ms"
#define HP__K_CROSSCHECK_TRACE_BUSY "trace_busy_fraction"
#define HP__K_CROSSCHECK_STEPS "steps"
#define HP__K_CROSSCHECK_KERNELS_PER_STEP "kernels_per_step"
#define HP__K_CROSSCHECK_LAUNCHES_PER_STEP "launches_per_step"

/* runs[] items. */
#define HP__K_RUN_INDEX "index"
#define HP__K_RUN_WARMUP "warmup"
#define HP__K_RUN_ROUND "round"
#define HP__K_RUN_DIR "dir"
#define HP__K_RUN_COMMAND "command"
#define HP__K_RUN_EXIT_STATUS "exit_status"
#define HP__K_RUN_SIGNAL "signal"
#define HP__K_RUN_TIMED_OUT "timed_out"
#define HP__K_RUN_INTERRUPTED "interrupted"
#define HP__K_RUN_ERROR "error"
#define HP__K_RUN_WALL_MS "wall_ms"
#define HP__K_RUN_MAX_RSS_KB "max_rss_kb"
#define HP__K_RUN_OK "ok"
#define HP__K_RUN_SKIPPED "skipped"
#define HP__K_RUN_VALUES "values"
#define HP__K_RUN_MEMORY "memory"
#define HP__K_RUN_FILES "files"

/* Parameter sweeps. A combination's session names itself with these two top-level members. */
#define HP__K_SESSION_COMBINATION "combination"
#define HP__K_SESSION_PARAMETERS "parameters"
/* The sweep's summary.json has `sweep` where a session has its passes. */
#define HP__K_SESSION_SWEEP "sweep"
#define HP__K_SWEEP_PARAMETERS "parameters"
#define HP__K_SWEEP_COMBINATIONS "combinations"
/* sweep.parameters[] items. */
#define HP__K_PARAM_NAME "name"
#define HP__K_PARAM_VALUES "values"
/* sweep.combinations[] items. */
#define HP__K_COMBO_NAME "name"
#define HP__K_COMBO_FOLDER "folder"
#define HP__K_COMBO_PARAMETERS "parameters"
#define HP__K_COMBO_RAN "ran"
#define HP__K_COMBO_COMPLETE "complete"
#define HP__K_COMBO_EXIT_CODE "exit_code"
#define HP__K_COMBO_METRIC "metric"
#define HP__K_COMBO_PASSES "passes"
/* sweep.combinations[].passes[] items: each pass's primary-metric overhead. */
#define HP__K_CPASS_NAME "name"
#define HP__K_CPASS_BASELINE "baseline"
#define HP__K_CPASS_FLAG "flag"
#define HP__K_CPASS_RATIO "ratio"
#define HP__K_CPASS_CI95 "ci95"
/* Launched runs (docs/cluster.md): runs[].launch {} and its ranks[] items, passes[].ranks {}. */
#define HP__K_RUN_LAUNCH "launch"
#define HP__K_LAUNCH_KIND "kind"
#define HP__K_LAUNCH_JOB_ID "job_id"
#define HP__K_LAUNCH_STEP_ID "step_id"
#define HP__K_LAUNCH_NODELIST "nodelist"
#define HP__K_LAUNCH_RANKS "ranks"
#define HP__K_RANK_RANK "rank"
#define HP__K_RANK_PROFILED "profiled"
#define HP__K_RANK_EXIT_STATUS "exit_status"
#define HP__K_RANK_HOST "host"
#define HP__K_RANK_VALUES "values"
#define HP__K_PASS_RANKS "ranks"
#define HP__K_RANKS_METRIC "metric"
#define HP__K_RANKS_N "n"
#define HP__K_RANKS_MIN "min"
#define HP__K_RANKS_MEDIAN "median"
#define HP__K_RANKS_MAX "max"
#define HP__K_RANKS_IMBALANCE "imbalance"
#define HP__K_RANKS_NPROFILED "profiled"
#define HP__K_RANKS_PROFILED_MEDIAN "profiled_median"
#define HP__K_RANKS_UNPROFILED_MEDIAN "unprofiled_median"
#define HP__K_RANKS_PROFILED_RATIO "profiled_vs_unprofiled"

/* peaks {} (the session's, and each roofline's): the ceilings and where they came from. */
#define HP__K_PEAKS_DEVICE "device"
#define HP__K_PEAKS_SOURCE "source" /* "measured", "datasheet", or absent (given in the plan) */
#define HP__K_PEAKS_BW "peak_bw_gbs"
#define HP__K_PEAKS_FP32 "peak_fp32_tflops"
#define HP__K_PEAKS_FP64 "peak_fp64_tflops"
#define HP__K_PEAKS_FP16 "peak_fp16_tflops" /* matrix (tensor core, MFMA) peaks */
#define HP__K_PEAKS_BF16 "peak_bf16_tflops"
#define HP__K_PEAKS_TF32 "peak_tf32_tflops"
#define HP__K_PEAKS_FP8 "peak_fp8_tflops"
#define HP__K_PEAKS_INT8 "peak_int8_tops"
#define HP__K_PEAKS_FP64M "peak_fp64_matrix_tflops"
#define HP__K_PEAKS_MSOURCE "matrix_source" /* the program that measured the matrix peaks */
/* passes[].roofline {} (lib/report/core/roofline_table.c; docs/roofline.md). Recomputed when read back
 * from the re-parsed profile and the session's peaks, so the reader needs none of these. */
#define HP__K_ROOFLINE_PEAKS "peaks"
#define HP__K_ROOFLINE_SOURCE "source" /* "ncu" or "pmc" */
#define HP__K_ROOFLINE_KERNELS "kernels"
#define HP__K_ROOFLINE_SKIPPED "skipped"
/* roofline.kernels[] items: the columns of the roofline table, one description for every format. */
#define HP__K_ROOF_NAME "name"
#define HP__K_ROOF_LAUNCHES "launches"
#define HP__K_ROOF_PRECISION "precision"
#define HP__K_ROOF_FLOP "flop"
#define HP__K_ROOF_BYTES "bytes"
#define HP__K_ROOF_TIME_NS "time_ns"
#define HP__K_ROOF_INTENSITY "intensity"
#define HP__K_ROOF_GFLOPS "gflops"
#define HP__K_ROOF_GBS "gbs"
#define HP__K_ROOF_BOUND "bound"
#define HP__K_ROOF_CEILING "ceiling"
#define HP__K_ROOF_ROOF "roof_gflops"
#define HP__K_ROOF_EFFICIENCY "efficiency" /* 0..1 */
#define HP__K_ROOF_NOTE "note"             /* why no bound: "FLOPs not captured: ..." */

#endif /* HPRUN_REPORT_SUMMARY_KEYS_H */
