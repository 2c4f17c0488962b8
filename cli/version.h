/* cellcheck's commit and version (git describe), stamped at build time (cli:version_c). */
#ifndef CELLCHECK_CLI_VERSION_H
#define CELLCHECK_CLI_VERSION_H

extern const char cli_commit[];
extern const char cli_version[];

#endif
