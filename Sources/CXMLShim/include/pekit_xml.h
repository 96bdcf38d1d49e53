// pekit's XPath over Debian's libxml2, loaded with dlopen on first use (its headers, from
// libxml2-dev, give the types only; include/libxml links to them).
#ifndef PEKIT_XML_H
#define PEKIT_XML_H

#include <stddef.h>

enum { PEKIT_XPATH_NODES = 1, PEKIT_XPATH_BOOLEAN = 2, PEKIT_XPATH_NUMBER = 3, PEKIT_XPATH_STRING = 4,
       PEKIT_XPATH_FAILED = -1, PEKIT_XML_MISSING = -2, PEKIT_XML_UNREADABLE = -3 };

// Receives one node's string value (or the string result); 0 to go on.
typedef int (*pekit_xml_sink)(void *context, const char *text, size_t length);

// Evaluates `expression` on the document, UTF-8 text (`html`: read as HTML, else as XML, its
// namespaces' prefixes registered, the default one as "_"). Nodes and strings go to `sink`; a number or a
// boolean (1 or 0) to `*number`. Returns the result's kind, or a failure with `error` filled.
int pekit_xpath(const char *document, size_t length, int html, const char *expression,
                double *number, pekit_xml_sink sink, void *context, char *error, size_t error_size);

#endif
