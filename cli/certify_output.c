/* The certificate record's files, each written whole or not at all (certify.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/certify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Whether path can take a report, before any work: not a directory or another non-regular file,
 * in a directory that exists and is writable. */
int cli_report_path_check(const char *flag, const char *path, cc_error *err) {
    struct stat st;
    if (!path[0]) return cc_fail(err, CC_ERR_ARG, "%s: an empty file name", flag);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return cc_fail(err, CC_ERR_ARG, "%s %s is not a regular file", flag, path);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK) != 0)
        return cc_fail(err, CC_ERR_ARG, "%s %s: %s is not a writable directory", flag, path, dir);
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
