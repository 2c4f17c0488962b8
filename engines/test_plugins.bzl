"""The plugins built for tests: the Make example's engine, right and with a wrong seam, the
libraries a plugin author gets wrong, which the loader must refuse, and the example over several
devices (its engine and its twin with a device seam bug, in one library). engines/BUILD builds
them; engines:plugin_test and cli:bad_input_test name them from here."""

# (name, source, defines): //engines:libplugin_test_<name>.so
TEST_PLUGINS = [
    ("threshold", "//examples/plugin_make:threshold.c", []),
    ("threshold_wrong", "//examples/plugin_make:threshold.c", ["EXAMPLE_WRONG_SEAM"]),
    ("bad_abi", "plugin_test_bad.c", ["PLUGIN_BAD_ABI"]),
    ("no_export", "plugin_test_bad.c", ["PLUGIN_NO_EXPORT"]),
    ("no_step", "plugin_test_bad.c", ["PLUGIN_NO_STEP"]),
    ("twice", "plugin_test_bad.c", ["PLUGIN_TWICE"]),
    ("name_bar", "plugin_test_bad.c", ["PLUGIN_NAME_BAR"]),
    ("name_newline", "plugin_test_bad.c", ["PLUGIN_NAME_NEWLINE"]),
    ("negative_cap", "plugin_test_bad.c", ["PLUGIN_NEGATIVE_CAP"]),
    ("w_multiple", "plugin_test_bad.c", ["PLUGIN_W_MULTIPLE"]),
    ("slabs", "//examples/plugin_devices:slabs.c", []),
]

# Every test plugin's name, in the order above.
TEST_PLUGIN_NAMES = [name for name, _, _ in TEST_PLUGINS]

def test_plugin_labels(names):
    """The labels of the named test plugins."""
    return ["//engines:libplugin_test_%s.so" % n for n in names]
