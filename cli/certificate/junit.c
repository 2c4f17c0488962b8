/* The certificate as a JUnit XML report (render.h): a <testsuite> per engine, a <testcase> per
 * section, each gap a skipped case named as --accept-gap takes it. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/certificate/render.h"
#include "harness/junit.h"

/* The sections of an engine's JUnit suite: the conformance sections, then the goldens. */
#define JUNIT_GOLDENS CC_CHECK_SECTION_COUNT
#define JUNIT_SECTIONS (CC_CHECK_SECTION_COUNT + 1)

typedef enum { CASE_PASSED, CASE_FAILED, CASE_SKIPPED } junit_outcome;

/* One section's outcome, and the message of a failure or a skip. */
static junit_outcome junit_section(const cc_certificate_engine *r, int section, char *msg,
                                   size_t size) {
    msg[0] = '\0';
    if (r->verdict == CC_VERDICT_NOT_RUN) {
        snprintf(msg, size, "not run here: %s", r->reason);
        return CASE_SKIPPED;
    }
    if (r->seconds == 0) { /* required hardware absent: nothing ran, and that is a failure */
        snprintf(msg, size, "%s", r->reason);
        return CASE_FAILED;
    }
    const cc_conformance_summary *c = &r->conf;
    if (section == JUNIT_GOLDENS) {
        if (!c->passed) {
            snprintf(msg, size, "not reached: the conformance checks did not pass");
            return CASE_SKIPPED;
        }
        if (r->verdict == CC_VERDICT_FAILED) {
            snprintf(msg, size, "%s", r->reason);
            return CASE_FAILED;
        }
        return CASE_PASSED;
    }
    const cc_section_tally *t = &c->sections[section];
    if (section == CC_CHECK_TIMING && r->hardware != CC_HW_GPU) {
        snprintf(msg, size, "not a dimension of an engine on the %s: no streams to disturb",
                 cc_hardware_name(r->hardware));
        return CASE_SKIPPED;
    }
    if (t->failed > 0) {
        if ((c->failed > 0 || c->campaign.has_failure) && (int)c->first_section == section)
            snprintf(msg, size, "%s", c->first_failure);
        else
            snprintf(msg, size, "%d failed", t->failed);
        return CASE_FAILED;
    }
    if (!t->run) {
        if (section == CC_CHECK_PAST_2_32 && !c->failed && c->huge_note[0])
            snprintf(msg, size, "not run: %s", c->huge_note);
        else if (c->failed || c->campaign.has_failure || c->stopped)
            snprintf(msg, size, "not reached: the checks stopped at the first failure");
        else
            snprintf(msg, size, "left out by the options");
        return CASE_SKIPPED;
    }
    if (t->passed == 0) {
        /* A section left out whole names its gap (the GPU timing section with no device to
         * disturb). */
        for (int g = 0; g < c->gaps.n; g++)
            if (c->gaps.gaps[g].section == section) {
                snprintf(msg, size, "left out: %s", c->gaps.gaps[g].reason);
                return CASE_SKIPPED;
            }
        snprintf(msg, size, "no case of this section fits the engine's caps or this shard");
        return CASE_SKIPPED;
    }
    return CASE_PASSED;
}

/* One <testsuite> per engine, one <testcase> per section; a failure carries its class, case line
 * and reproducer; an engine whose hardware is absent is skipped. A failed engine none of whose
 * sections failed (the checks could not run) gets a "certify" case with an <error>. */
void cc_certificate_junit(FILE *f, const cc_certificate *cert) {
    const cc_certificate_engine *rows = cert->engine;
    const int n = cert->engines;
    const char *seed = cert->prov.seed;
    char msg[1024];
    int total = 0, failures = 0, errors = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        int section_failed = 0;
        for (int s = 0; s < JUNIT_SECTIONS; s++) {
            junit_outcome o = junit_section(&rows[i], s, msg, sizeof msg);
            total++;
            failures += o == CASE_FAILED;
            skipped += o == CASE_SKIPPED;
            section_failed |= o == CASE_FAILED;
        }
        if (rows[i].verdict == CC_VERDICT_FAILED && !section_failed) {
            total++;
            errors++;
        }
        total += rows[i].conf.gaps.n;
        skipped += rows[i].conf.gaps.n;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"cellcheck certify\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
               "skipped=\"%d\">\n",
            total, failures, errors, skipped);
    for (int i = 0; i < n; i++) {
        const cc_certificate_engine *r = &rows[i];
        int t = 0, fl = 0, sk = 0, section_failed = 0;
        for (int s = 0; s < JUNIT_SECTIONS; s++) {
            junit_outcome o = junit_section(r, s, msg, sizeof msg);
            t++;
            fl += o == CASE_FAILED;
            sk += o == CASE_SKIPPED;
            section_failed |= o == CASE_FAILED;
        }
        int error = r->verdict == CC_VERDICT_FAILED && !section_failed;
        fprintf(f, "  <testsuite name=\"");
        cc_junit_xml_text(f, r->name);
        fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\" "
                   "timestamp=\"%.19s\">\n",
                t + error + r->conf.gaps.n, fl, error, sk + r->conf.gaps.n, r->seconds,
                cert->prov.date);
        fprintf(f, "    <properties>\n      <property name=\"verdict\" value=\"%s\"/>\n"
                   "      <property name=\"needs\" value=\"%s\"/>\n"
                   "      <property name=\"master_seed\" value=\"%s\"/>\n",
                cc_verdict_name(r->verdict), cc_hardware_name(r->hardware), seed);
        if (r->plugin[0]) {
            fprintf(f, "      <property name=\"plugin\" value=\"");
            cc_junit_xml_text(f, r->plugin);
            fprintf(f, "\"/>\n      <property name=\"plugin_sha256\" value=\"%s\"/>\n",
                    r->plugin_sha256);
        }
        fprintf(f, "    </properties>\n");
        cc_failure_view fv;
        cc_certificate_failure(r, &fv);
        for (int s = 0; s < JUNIT_SECTIONS; s++) {
            const char *name =
                s == JUNIT_GOLDENS ? "goldens" : cc_check_section_name((cc_check_section)s);
            junit_outcome o = junit_section(r, s, msg, sizeof msg);
            fprintf(f, "    <testcase classname=\"");
            cc_junit_xml_text(f, r->name);
            fprintf(f, "\" name=\"%s\" time=\"%.3f\"", name, cc_certificate_section_seconds(r, s));
            if (o == CASE_PASSED) {
                fprintf(f, "/>\n");
                continue;
            }
            fprintf(f, ">\n");
            if (o == CASE_SKIPPED) {
                fprintf(f, "      <skipped message=\"");
                cc_junit_xml_text(f, msg);
                fprintf(f, "\"/>\n");
            } else {
                /* The first failure's class, case and reproducer where it is this section's. */
                int first = fv.section[0] && strcmp(fv.section, name) == 0;
                const char *klass = first              ? fv.klass
                                    : r->seconds == 0 ? "hardware absent"
                                                      : "failed";
                fprintf(f, "      <failure type=\"");
                cc_junit_xml_text(f, klass);
                fprintf(f, "\" message=\"");
                cc_junit_xml_text(f, klass);
                fprintf(f, ": ");
                cc_junit_xml_text(f, msg);
                fprintf(f, "\">");
                cc_junit_xml_text(f, msg);
                if (first && fv.case_line[0]) {
                    fprintf(f, "\ncase: ");
                    cc_junit_xml_text(f, fv.case_line);
                }
                if (first && fv.calls[0]) {
                    fprintf(f, "\ncalls: ");
                    cc_junit_xml_text(f, fv.calls);
                }
                if (first && fv.index >= 0) fprintf(f, "\ncampaign case %" PRId64, fv.index);
                fprintf(f, "\nmaster seed: %s", seed);
                if (first && fv.reproducer[0]) {
                    fprintf(f, "\nreproduce: ");
                    cc_junit_xml_text(f, fv.reproducer);
                }
                fprintf(f, "</failure>\n");
            }
            fprintf(f, "    </testcase>\n");
        }
        /* Each gap a skipped case of its own, named as --accept-gap takes it. */
        for (int g = 0; g < r->conf.gaps.n; g++) {
            char id[64];
            cc_gap_id(&r->conf.gaps.gaps[g], id, sizeof id);
            fprintf(f, "    <testcase classname=\"");
            cc_junit_xml_text(f, r->name);
            fprintf(f, "\" name=\"gap %s\" time=\"0.000\">\n      <skipped message=\"", id);
            snprintf(msg, sizeof msg, "%d left out%s: %s", r->conf.gaps.gaps[g].count,
                     r->conf.gaps.gaps[g].accepted ? " (accepted by --accept-gap)" : "",
                     r->conf.gaps.gaps[g].reason);
            cc_junit_xml_text(f, msg);
            fprintf(f, "\"/>\n    </testcase>\n");
        }
        if (error) {
            fprintf(f, "    <testcase classname=\"");
            cc_junit_xml_text(f, r->name);
            fprintf(f, "\" name=\"certify\">\n      <error type=\"");
            cc_junit_xml_text(f, fv.klass);
            fprintf(f, "\" message=\"");
            cc_junit_xml_text(f, r->reason);
            fprintf(f, "\"/>\n    </testcase>\n");
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
}
