/* The certificate record's files, each written whole or not at all (certify.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/certify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/certificate/render.h"
#include "cli/certificate/shard.h"
#include "oracle/gridio.h"

int cli_certificate_write(const char *dir, const cc_certificate *c, cc_error *err) {
    char *md = NULL, *json = NULL;
    size_t md_len = 0, json_len = 0;
    FILE *f = open_memstream(&md, &md_len);
    if (!f) return cc_fail(err, CC_ERR_NOMEM, "cannot build the certificate in memory");
    cc_certificate_markdown(f, c);
    if (fclose(f)) {
        free(md);
        return cc_fail(err, CC_ERR_NOMEM, "cannot build the certificate in memory");
    }
    if (cc_certificate_json(c, &json, &json_len, err)) {
        free(md);
        return CC_ERR_NOMEM;
    }
    const char *const names[] = {"certificate.md", "certificate.json"};
    const char *const texts[] = {md, json};
    const size_t lens[] = {md_len, json_len};
    int rc = cc_write_files_atomic(dir, "certificate", 2, names, texts, lens, err);
    if (!rc) printf("wrote %s/certificate.md and %s/certificate.json\n", dir, dir);
    free(md);
    free(json);
    return rc;
}

/* The JUnit report at path, whole or not at all. */
int cli_junit_write(const char *path, const cc_certificate *c, cc_error *err) {
    char *xml = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&xml, &len);
    if (!f) return cc_fail(err, CC_ERR_NOMEM, "cannot build the JUnit report in memory");
    cc_certificate_junit(f, c);
    if (fclose(f)) {
        free(xml);
        return cc_fail(err, CC_ERR_NOMEM, "cannot build the JUnit report in memory");
    }
    int rc = cc_write_file_atomic(path, xml, len, err);
    free(xml);
    if (rc) return cc_prefix(err, "the JUnit report %s", path);
    printf("wrote %s\n", path);
    return CC_OK;
}

int cli_shard_file_write(const char *dir, const cc_certificate *c, cc_error *err) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return cc_fail(err, CC_ERR_NOMEM, "cannot build the shard record");
    cc_shard_write(f, c);
    if (fclose(f)) {
        free(text);
        return cc_fail(err, CC_ERR_NOMEM, "cannot build the shard record");
    }
    const char *const names[] = {"shard.txt"};
    const char *const texts[] = {text};
    int rc = cc_write_files_atomic(dir, "shard", 1, names, texts, &len, err);
    if (!rc) printf("wrote %s/shard.txt\n", dir);
    free(text);
    return rc;
}
