# The hand computation: from the ncu raw CSV alone, per launch, tensor FLOPs
# (sm__ops_path_tensor_src_{bf16_dst_fp32,fp16,tf32_dst_fp32,fp64,int8}.sum, fp8 sparsity on+off)
# plus FADD+FMUL+2*FFMA (+ fp64, fp16 twins) rates x smsp clock x duration, over time; then hprun's
# summarize JSON against it (within 2%), and the plain GEMMs / SDPA against 2*M*N*K / 4*B*H*S^2*D
# (within 5%). Usage: hand.py ncu.csv hprun.json app.txt
import csv, json, re, sys
rows = list(csv.reader(open(sys.argv[1])))
rows = rows[next(i for i, r in enumerate(rows) if r[:1] == ["ID"]):]
h = rows[0]; ix = {n: i for i, n in enumerate(h)}
# Units from ncu's units row: a direct --csv run prints base units, ncu --import scaled ones.
U = {"": 1, "ns": 1, "us": 1e3, "ms": 1e6, "hz": 1, "mhz": 1e6, "ghz": 1e9, "inst/cycle": 1}
num = lambda r, n: (float(r[ix[n]].replace(",", "")) * U[rows[1][ix[n]].lower()]
                    if n in ix and r[ix[n]] not in ("", "n/a") else 0.0)
TENS = ["sm__ops_path_tensor_src_bf16_dst_fp32.sum", "sm__ops_path_tensor_src_fp16.sum",
        "sm__ops_path_tensor_src_tf32_dst_fp32.sum", "sm__ops_path_tensor_src_fp64.sum",
        "sm__ops_path_tensor_src_int8.sum", "sm__ops_path_tensor_src_fp8_sparsity_off.sum",
        "sm__ops_path_tensor_src_fp8_sparsity_on.sum"]
acc = {}
launches = []  # (kernel name, FLOPs) of every launch, for the known shapes below
for r in rows[2:]:
    t = num(r, "gpu__time_duration.sum")
    vec = sum(num(r, f"smsp__sass_thread_inst_executed_op_{o}_pred_on.sum.per_cycle_elapsed") * (2 if "fma" in o else 1)
              for o in ("fadd", "fmul", "ffma", "dadd", "dmul", "dfma", "hadd", "hmul", "hfma"))
    fl = sum(num(r, n) for n in TENS) + vec * num(r, "smsp__cycles_elapsed.avg.per_second") * t * 1e-9
    a = acc.setdefault(r[ix["Kernel Name"]], [0, 0.0, 0.0])
    a[0] += 1; a[1] += fl; a[2] += t
    launches.append((r[ix["Kernel Name"]], fl))
d = json.load(open(sys.argv[2]))
bad = 0
print("kernel | launches | hand TFLOP/s | hprun TFLOP/s | diff | precision | bound | % of roof | note")
for k in d["kernels"]:
    n, fl, t = acc[k["name"]]
    hand = fl / t / 1e3
    got = None if k["gflops"] is None else k["gflops"] / 1e3
    diff = None if got is None or hand == 0 else got / hand - 1
    # The 2% check is for tensor kernels, whose FLOPs are counts. Vector FLOPs from the section's
    # rates are rate x clock x time per launch here but products of launch means in hprun, which
    # differ for a kernel name launched with different shapes: shown, not judged.
    if diff is not None and abs(diff) > 0.02 and (k["precision"] or "").endswith("-tensor"): bad += 1
    if hand > 1:
        print(f"{k['name'][:70]} | {n} | {hand:.1f} | {got if got is None else round(got, 1)} | "
              f"{diff if diff is None else f'{diff:+.2%}'} | {k['precision']} | {k['bound']} | "
              f"{k['efficiency'] and round(k['efficiency'] * 100, 1)} | {k['note']}")
# Known shapes: app.py ends its second round with the three GEMMs and the SDPA, in the order it
# prints their shapes, so they are the last launches of the capture with at least 1e10 FLOPs (the
# layer step's largest GEMM has 4.3e9). Matched per launch, not per kernel name: cuBLAS runs two
# of the shapes with the same kernel, whose mean would match neither. hprun's FLOPs for each name
# are the sum of these launches (the TFLOP/s check above).
known = [int(m) for m in re.findall(r"flops?=(\d+)", open(sys.argv[3]).read())]
big = [x for x in launches if x[1] >= 1e10][-len(known):]
for f, (name, fl) in zip(known, big):
    ok = abs(fl / f - 1) <= 0.05
    bad += not ok
    print(f"known {f} FLOP: launch {name[:60]} {fl:.6g} ({fl / f - 1:+.3%}) {'ok' if ok else 'FAIL'}")
bad += len(big) < len(known)
print("verdict:", "ok" if bad == 0 else f"{bad} mismatches")
