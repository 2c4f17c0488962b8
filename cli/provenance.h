/* Where a certificate comes from, read off this run and this machine into the record's
 * provenance (cli/certificate/record.h). */
#ifndef CELLCHECK_CLI_PROVENANCE_H
#define CELLCHECK_CLI_PROVENANCE_H

#include <stddef.h>

#include "cli/certificate/record.h"
#include "supervise/supervisor.h"

/* This binary's build (cli/version.h). */
void cli_build_of(cc_build *b);

/* The date, the command line (with the plugins loaded), the OS, this machine's CPU and host
 * name. */
void cli_provenance_here(cc_provenance *p, int argc, char **argv);

/* The workers' sandbox of sv in words: "in force: network, filesystem, ...", with "; not in
 * force: PARTS (why)" where a part was not, or "off (--sandbox off)". */
void cli_sandbox_describe(const cc_supervisor *sv, char *buf, size_t size);

/* The GPU and CUDA versions, where one of c's engines ran on a GPU; else "". */
void cli_provenance_gpu(cc_provenance *p, const cc_certificate *c);

#endif
