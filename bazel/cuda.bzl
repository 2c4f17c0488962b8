"""cuda_library: CUDA sources built by nvcc for sm_90 (with PTX), exposed to C through a cc_library.

CUDA C++ stays inside the .cu files; what the rest of the tree sees is a C header and a static
archive. CUDA 13 lives at /usr/local/cuda on every machine the project builds on; the runtime is
linked statically so test binaries run on a GPU machine with no CUDA install of its own.
"""

NVCC = "/usr/local/cuda/bin/nvcc"
CUDA_LIB = "/usr/local/cuda/lib64"

# sm_90 machine code for the H100, plus compute_90 PTX so newer drivers and chips can JIT it.
_ARCH_FLAGS = ["-gencode", "arch=compute_90,code=[sm_90,compute_90]"]

_COMMON_FLAGS = [
    "-O3",
    "-std=c++17",
    "--compiler-options=-fPIC,-Wall,-Wextra,-Werror",
    "--Werror=all-warnings",
    "-ccbin=/usr/bin/gcc",
]

def _cuda_archive_impl(ctx):
    headers = []
    includes = ["."]
    for dep in ctx.attr.deps:
        cc = dep[CcInfo].compilation_context
        headers.append(cc.headers)
        includes += cc.includes.to_list() + cc.quote_includes.to_list()
    header_depset = depset(ctx.files.hdrs, transitive = headers)
    include_flags = []
    for inc in depset(includes + [ctx.bin_dir.path, ctx.genfiles_dir.path]).to_list():
        include_flags += ["-I", inc]

    objects = []
    for src in ctx.files.srcs:
        obj = ctx.actions.declare_file("_cuda_objs/%s/%s.o" % (ctx.label.name, src.basename))
        args = ctx.actions.args()
        args.add_all(_ARCH_FLAGS + _COMMON_FLAGS + include_flags + ctx.attr.copts)
        args.add_all(["-c", src.path, "-o", obj.path])
        ctx.actions.run(
            executable = NVCC,
            arguments = [args],
            inputs = depset([src], transitive = [header_depset]),
            outputs = [obj],
            mnemonic = "Nvcc",
            progress_message = "nvcc %s" % src.short_path,
            use_default_shell_env = True,
        )
        objects.append(obj)

    archive = ctx.actions.declare_file("lib%s.a" % ctx.label.name)
    ar_args = ctx.actions.args()
    ar_args.add("rcs", archive)
    ar_args.add_all(objects)
    ctx.actions.run(
        executable = "/usr/bin/ar",
        arguments = [ar_args],
        inputs = objects,
        outputs = [archive],
        mnemonic = "CudaArchive",
        use_default_shell_env = True,
    )
    return [DefaultInfo(files = depset([archive]))]

_cuda_archive = rule(
    implementation = _cuda_archive_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = [".cu"]),
        "hdrs": attr.label_list(allow_files = [".h", ".cuh"]),
        "deps": attr.label_list(providers = [CcInfo]),
        "copts": attr.string_list(),
    },
)

def cuda_library(name, srcs, hdrs = [], cuda_hdrs = [], deps = [], copts = [], linkopts = [], visibility = None, testonly = False):
    """A cc_library whose code is CUDA: `hdrs` is its C interface, `cuda_hdrs` stay private.

    Its objects reach a program as an archive's members, each linked only where something
    refers to it; `linkopts` (-Wl,--undefined=SYMBOL) pulls one in that only weak references
    name."""
    _cuda_archive(
        name = name + "_cuda",
        srcs = srcs,
        hdrs = hdrs + cuda_hdrs,
        deps = deps,
        copts = copts,
        testonly = testonly,
    )
    native.cc_library(
        name = name,
        srcs = [":" + name + "_cuda"],
        hdrs = hdrs,
        deps = deps,
        linkopts = linkopts + [
            CUDA_LIB + "/libcudart_static.a",
            "-lstdc++",
            "-ldl",
            "-lrt",
            "-lpthread",
        ],
        alwayslink = True,
        linkstatic = True,
        visibility = visibility,
        testonly = testonly,
    )
