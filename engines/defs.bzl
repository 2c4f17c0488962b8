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

# From another workspace, the references through the root package's public aliases.
_PUBLIC_REFERENCES = {
    "cpu.ref": "//:cpu_ref",
    "cuda.base": "//:cuda_base",
}

# Labels are written through Label(): from another workspace that names this one (local_repository
# or http_archive), "//harness" would otherwise mean that workspace's own package. What another
# workspace may use is public through the root package's aliases.
def _here(label):
    return str(Label(label))

def _own_workspace():
    """Whether the macro is called from cellcheck's own workspace."""
    mine = Label("//:engine_contract").workspace_name
    return native.repository_name() == "@" + mine

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
        conformance_cases = 200,  # certify runs 2000; this keeps the clean CI under 6 minutes
        conformance_shards = 2,
        test_size = "medium",
        tags = [],
        visibility = None):
    for dep in deps:
        # An engine sits below the case generator, the harness, the goldens and the command line;
        # only its tests, declared here, may use them.
        for layer in ["//fuzz", "//harness", "//golden", "//cli"]:
            if dep == layer or dep.startswith(layer + ":") or dep.startswith(layer + "/"):
                fail("%s: an engine may not depend on %s, a layer above the engines" % (name, dep))
    symbol = engine_symbol(engine)
    if visibility == None and _own_workspace():
        visibility = ["//:above_model"]
    engine_deps = [_here("//:engine_contract"), _here("//:engine_plugin")] + deps
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
        srcs = [_here("//:harness_main")],
        local_defines = under_test + ["CC_HARNESS=cc_harness_conformance", "CC_HARNESS_REPLAY"],
        # The case past 2^32 cells takes tens of seconds and most of a GPU's memory: certify runs
        # it, one engine at a time, rather than every test binary at once.
        args = ["--cases", str(conformance_cases), "--huge-grid", "off"],
        deps = [":" + name, _here("//:harness")],
        shard_count = conformance_shards,
        linkstatic = True,
        size = test_size,
        tags = tags,
    )

    native.cc_test(
        name = name + "_golden_test",
        srcs = [_here("//:harness_main")],
        local_defines = under_test + ["CC_HARNESS=cc_harness_golden"],
        args = ["--catalogue", "$(rootpath %s)" % _here("//golden:catalogue.txt")],
        data = [_here("//:golden_catalogue"), _here("//golden:catalogue.txt")],
        deps = [":" + name, _here("//:golden_harness")],
        linkstatic = True,
        size = test_size,
        tags = tags,
    )

    ref_label = Label(REFERENCES[reference])
    bench_deps = [":" + name, _here("//:harness")]
    if not _own_workspace():
        bench_deps.append(_here(_PUBLIC_REFERENCES[reference]))
    elif ref_label.package != native.package_name():
        bench_deps.append(str(ref_label))
    native.cc_binary(
        name = name + "_bench",
        srcs = [_here("//:harness_main")],
        local_defines = under_test + [
            "CC_HARNESS=cc_harness_bench",
            "CC_ENGINE_REFERENCE=" + engine_symbol(reference),
        ],
        deps = bench_deps,
        tags = tags,
    )
