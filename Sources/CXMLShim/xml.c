// XPath over libxml2 2.9 (Debian 12's libxml2), loaded with dlopen the first time a script asks:
// pekit's start-up does not pay for libxml2 and the ICU it brings.
#include "pekit_xml.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

static struct {
    void (*initParser)(void);
    htmlDocPtr (*htmlRead)(const char *, int, const char *, const char *, int);
    xmlDocPtr (*xmlRead)(const char *, int, const char *, const char *, int);
    void (*freeDoc)(xmlDocPtr);
    xmlNodePtr (*root)(const xmlDoc *);
    xmlXPathContextPtr (*newContext)(xmlDocPtr);
    void (*freeContext)(xmlXPathContextPtr);
    int (*registerNs)(xmlXPathContextPtr, const xmlChar *, const xmlChar *);
    const xmlChar *(*lookupNs)(xmlXPathContextPtr, const xmlChar *);
    xmlXPathObjectPtr (*eval)(const xmlChar *, xmlXPathContextPtr);
    void (*freeObject)(xmlXPathObjectPtr);
    xmlChar *(*nodeString)(xmlNodePtr);
    xmlErrorPtr (*lastError)(void);
    void (*resetError)(void);
    void (*setGenericError)(void *, xmlGenericErrorFunc);
    xmlFreeFunc *free;
    int state;  // 0 not tried, 1 loaded, -1 not there
} lib;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// libxml2's own messages go nowhere: pekit says what failed.
static void silent(void *context, const char *message, ...) { (void)context; (void)message; }

static int load(void) {
    pthread_mutex_lock(&lock);
    if (!lib.state) {
        void *h = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
        struct { const char *name; void **slot; } symbols[] = {
            {"xmlInitParser", (void **)&lib.initParser}, {"htmlReadMemory", (void **)&lib.htmlRead},
            {"xmlReadMemory", (void **)&lib.xmlRead}, {"xmlFreeDoc", (void **)&lib.freeDoc},
            {"xmlDocGetRootElement", (void **)&lib.root}, {"xmlXPathNewContext", (void **)&lib.newContext},
            {"xmlXPathFreeContext", (void **)&lib.freeContext}, {"xmlXPathRegisterNs", (void **)&lib.registerNs},
            {"xmlXPathNsLookup", (void **)&lib.lookupNs},
            {"xmlXPathEvalExpression", (void **)&lib.eval}, {"xmlXPathFreeObject", (void **)&lib.freeObject},
            {"xmlXPathCastNodeToString", (void **)&lib.nodeString}, {"xmlGetLastError", (void **)&lib.lastError},
            {"xmlResetLastError", (void **)&lib.resetError}, {"xmlSetGenericErrorFunc", (void **)&lib.setGenericError},
            {"xmlFree", (void **)&lib.free},
        };
        size_t count = sizeof symbols / sizeof symbols[0], found = 0;
        while (h && found < count && (*symbols[found].slot = dlsym(h, symbols[found].name))) found++;
        lib.state = h && found == count ? 1 : -1;
        if (lib.state == 1) {
            lib.initParser();
            lib.setGenericError(NULL, silent);
        }
    }
    pthread_mutex_unlock(&lock);
    return lib.state == 1;
}

// Every namespace declared in the document, by its prefix (the default one as "_"), as Hurl
// registers them; the first declaration of a prefix wins.
static void register_namespaces(xmlXPathContextPtr context, xmlNodePtr node) {
    for (; node; node = node->next) {
        if (node->type != XML_ELEMENT_NODE) continue;
        for (xmlNsPtr ns = node->nsDef; ns; ns = ns->next) {
            const xmlChar *prefix = ns->prefix ? ns->prefix : (const xmlChar *)"_";
            if (ns->href && !lib.lookupNs(context, prefix)) lib.registerNs(context, prefix, ns->href);
        }
        register_namespaces(context, node->children);
    }
}

static int fail(char *error, size_t size, int code, const char *what) {
    xmlErrorPtr last = lib.state == 1 ? lib.lastError() : NULL;
    const char *detail = last && last->message ? last->message : "";
    snprintf(error, size, "%s%s%s", what, *detail ? ": " : "", detail);
    size_t n = strlen(error);
    while (n && (error[n - 1] == '\n' || error[n - 1] == ' ')) error[--n] = 0;
    return code;
}

int pekit_xpath(const char *document, size_t length, int html, const char *expression,
                double *number, pekit_xml_sink sink, void *context, char *error, size_t error_size) {
    if (!load()) {
        snprintf(error, error_size, "XPath needs libxml2.so.2 (Debian's libxml2), which is not on this machine");
        return PEKIT_XML_MISSING;
    }
    if (length > 0x7fffffff) return fail(error, error_size, PEKIT_XML_UNREADABLE, "the document is larger than libxml2 reads");
    lib.resetError();
    int options = html ? HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_RECOVER
                       : XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NONET;
    // The document is UTF-8 text (what a declaration or a <meta> says of its bytes no longer holds).
    xmlDocPtr doc = html ? lib.htmlRead(document, (int)length, NULL, "UTF-8", options)
                         : lib.xmlRead(document, (int)length, NULL, "UTF-8", options);
    if (!doc) return fail(error, error_size, PEKIT_XML_UNREADABLE, html ? "the body is not HTML" : "the body is not XML");
    xmlXPathContextPtr ctx = lib.newContext(doc);
    if (!ctx) { lib.freeDoc(doc); return fail(error, error_size, PEKIT_XPATH_FAILED, "no memory for XPath"); }
    if (!html) register_namespaces(ctx, lib.root(doc));
    lib.resetError();
    xmlXPathObjectPtr result = lib.eval((const xmlChar *)expression, ctx);
    int kind;
    if (!result) {
        kind = fail(error, error_size, PEKIT_XPATH_FAILED, "not an XPath expression");
    } else if (result->type == XPATH_NODESET) {
        kind = PEKIT_XPATH_NODES;
        xmlNodeSetPtr set = result->nodesetval;
        for (int i = 0; set && i < set->nodeNr; i++) {
            xmlChar *text = lib.nodeString(set->nodeTab[i]);
            int stop = sink(context, text ? (const char *)text : "", text ? strlen((const char *)text) : 0);
            if (text) (*lib.free)(text);
            if (stop) break;
        }
    } else if (result->type == XPATH_BOOLEAN) {
        kind = PEKIT_XPATH_BOOLEAN;
        *number = result->boolval ? 1 : 0;
    } else if (result->type == XPATH_NUMBER) {
        kind = PEKIT_XPATH_NUMBER;
        *number = result->floatval;
    } else if (result->type == XPATH_STRING) {
        kind = PEKIT_XPATH_STRING;
        const char *text = result->stringval ? (const char *)result->stringval : "";
        sink(context, text, strlen(text));
    } else {
        kind = fail(error, error_size, PEKIT_XPATH_FAILED, "an XPath result pekit does not read");
    }
    if (result) lib.freeObject(result);
    lib.freeContext(ctx);
    lib.freeDoc(doc);
    return kind;
}
