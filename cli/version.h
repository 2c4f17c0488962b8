/* cellcheck's commit and version (git describe), stamped at build time (cli:version_c), and how
 * it was compiled (cli:build_info_c). */
#ifndef CELLCHECK_CLI_VERSION_H
#define CELLCHECK_CLI_VERSION_H

extern const char cli_commit[];
extern const char cli_version[];

/* The compiler that built it ("gcc 12.2.0 (/usr/bin/gcc)"), the flags every C file got (the
 * toolchain's and the build's --copt and --conlyopt) and Bazel's compilation mode
 * (cli:build_info_c). */
extern const char cli_compiler[];
extern const char cli_build_flags[];
extern const char cli_compilation_mode[];

#endif
