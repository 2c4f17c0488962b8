"""cc_archive: one static library (.a) of position-independent objects holding a cc_library and
everything it depends on, for projects built without Bazel (ci/install.sh installs it).

Bazel keeps one archive per cc_library; a Make or CMake project wants one file to link, into an
executable or into a shared library (a plugin), hence the PIC objects.
"""

def _cc_archive_impl(ctx):
    objects = []
    seen = {}
    for dep in ctx.attr.deps:
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            for lib in linker_input.libraries:
                for obj in (lib.pic_objects or lib.objects or []):
                    if obj.path not in seen:
                        seen[obj.path] = True
                        objects.append(obj)
    out = ctx.actions.declare_file(ctx.attr.out)
    args = ctx.actions.args()
    args.add("rcs")
    args.add(out)
    args.add_all(objects)
    ctx.actions.run(
        executable = "/usr/bin/ar",
        arguments = [args],
        inputs = objects,
        outputs = [out],
        mnemonic = "CcArchive",
        progress_message = "Archiving %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]))]

cc_archive = rule(
    implementation = _cc_archive_impl,
    attrs = {
        "deps": attr.label_list(providers = [CcInfo]),
        "out": attr.string(mandatory = True),
    },
)
