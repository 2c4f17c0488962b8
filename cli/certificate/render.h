/* The certificate record (record.h) as a person or a tool reads it: Markdown (certificate.md and
 * the table certify prints), JSON (certificate.json, cli/certificate.schema.json) and JUnit XML. */
#ifndef CELLCHECK_CLI_CERTIFICATE_RENDER_H
#define CELLCHECK_CLI_CERTIFICATE_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "cli/certificate/record.h"

/* certificate.md: the provenance as a list, then the table. */
void cc_certificate_markdown(FILE *f, const cc_certificate *c);

/* The table, the reasons, the gaps and the notes: printed, and the body of certificate.md. */
void cc_certificate_table(FILE *f, const cc_certificate *c);

/* The gaps of every engine, where a person looks: at the end of a run. Nothing where none. */
void cc_certificate_print_gaps(FILE *f, const cc_certificate *c);

/* certificate.json into *text (*len bytes, malloc'd, ending in a newline). CC_ERR_NOMEM. */
int cc_certificate_json(const cc_certificate *c, char **text, size_t *len, cc_error *err);

/* The JUnit report: a <testsuite> per engine, a <testcase> per section and per gap. */
void cc_certificate_junit(FILE *f, const cc_certificate *c);

#endif
