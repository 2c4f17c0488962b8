"""cellcheck_engine: one call per engine yields its library, its tests and its benchmark.

    cellcheck_engine(
        name = "cpu_ref",           # target names: cpu_ref, cpu_ref_conformance_test, ...
        engine = "cpu.ref",         # the engine's stable name; its table is cc_engine_cpu_ref
        srcs = ["cpu_ref.c"],
        cuda_srcs = [],             # .cu files, built by nvcc behind the engine's C interface
        reference = "cpu.ref",      # what the benchmark compares against in the same run
    )

The tests are the same harness for every engine (//harness, and //golden for the golden test): a seeded campaign against
the oracle, edge cases, the zero-step round trip, the refusals, and the golden catalogue. A test
whose hardware is absent prints `SKIPPED: <engine>: <reason>` and passes, unless CELLCHECK_REQUIRE
names that hardware (`bazel test --config=gpu`), in which case it fails.
"""

load("//bazel:cuda.bzl", "cuda_library")

# The reference engine of each kind: benchmarks report their ratio to it, measured in the same run.
REFERENCES = {
    "cpu.ref": "//reference/cpu_ref",
    "cuda.base": "//reference/cuda_base",
}

def engine_symbol(engine):
    """The C name of an engine's table: "cpu.amx-emu" -> cc_engine_cpu_amx_emu."""
    return "cc_engine_" + engine.replace(".", "_").replace("-", "_")

def cellcheck_engine(
        name,
        engine,
        srcs = [],
        hdrs = [],
        cuda_srcs = [],
        cuda_hdrs = [],
        deps = [],
        copts = [],
        linkopts = [],
        reference = "cpu.ref",
        conformance_cases = 300,
        conformance_shards = 2,
        test_size = "medium",
        tags = [],
        visibility = ["//:above_model"]):
    for dep in deps:
        # An engine sits below the case generator, the harness, the goldens and the command line;
        # only its tests, declared here, may use them.
        for layer in ["//fuzz", "//harness", "//golden", "//cli"]:
            if dep == layer or dep.startswith(layer + ":") or dep.startswith(layer + "/"):
                fail("%s: an engine may not depend on %s, a layer above the engines" % (name, dep))
    symbol = engine_symbol(engine)
    engine_deps = ["//engines:contract"] + deps
    if cuda_srcs:
        cuda_library(
            name = name + "_kernels",
            srcs = cuda_srcs,
            cuda_hdrs = cuda_hdrs,
            hdrs = hdrs,
            deps = engine_deps,
        )
        engine_deps = engine_deps + [":" + name + "_kernels"]

    native.cc_library(
        name = name,
        srcs = srcs,
        hdrs = hdrs,
        copts = copts,
        linkopts = linkopts,
        deps = engine_deps,
        alwayslink = True,
        visibility = visibility,
    )

    under_test = ["CC_ENGINE_UNDER_TEST=" + symbol]

    native.cc_test(
        name = name + "_conformance_test",
        srcs = ["//harness:harness_main.c"],
        local_defines = under_test + ["CC_HARNESS=cc_harness_conformance", "CC_HARNESS_REPLAY"],
        # The case past 2^32 cells takes tens of seconds and most of a GPU's memory: certify runs
        # it, one engine at a time, rather than every test binary at once.
        args = ["--cases", str(conformance_cases), "--huge-grid", "off"],
        deps = [":" + name, "//harness"],
        shard_count = conformance_shards,
        linkstatic = True,
        size = test_size,
        tags = tags,
    )

    native.cc_test(
        name = name + "_golden_test",
        srcs = ["//harness:harness_main.c"],
        local_defines = under_test + ["CC_HARNESS=cc_harness_golden"],
        args = ["--catalogue", "golden/catalogue.txt"],
        data = ["//golden:catalogue"],
        deps = [":" + name, "//golden:golden_harness"],
        linkstatic = True,
        size = test_size,
        tags = tags,
    )

    ref_label = REFERENCES[reference]
    bench_deps = [":" + name, "//harness"]
    if ref_label != "//" + native.package_name():
        bench_deps.append(ref_label)
    native.cc_binary(
        name = name + "_bench",
        srcs = ["//harness:harness_main.c"],
        local_defines = under_test + [
            "CC_HARNESS=cc_harness_bench",
            "CC_ENGINE_REFERENCE=" + engine_symbol(reference),
        ],
        deps = bench_deps,
        tags = tags,
    )
