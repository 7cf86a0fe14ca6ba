/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcubectl's output, as iproute2 prints: one call per value serves both
 * the text and the JSON form. @out says which form the value belongs to
 * (VC_ANY: both; VC_JSON: JSON only, e.g. a raw ns count; VC_TEXT: text
 * only, e.g. the same in us). In JSON the key names the value and commas
 * come by themselves; in text @fmt prints it (NULL: nothing).
 */
#ifndef VCUBECTL_PRINT_H
#define VCUBECTL_PRINT_H

#include <stdbool.h>

enum vc_out {
	VC_JSON = 1,
	VC_TEXT = 2,
	VC_ANY = 3,
};

/* JSON or text, for every call after it. */
void vc_print_mode(bool json);
bool vc_json(void);
/* JSON indented, a value a line (-p), not compact. */
void vc_print_pretty(bool pretty);

/* A JSON object ('{') or array ('['), under @key inside an object. */
void vc_open(const char *key, char kind);
void vc_close(char kind);
/* The end of one whole output: JSON's newline (text ends its own lines). */
void vc_end(void);

void vc_print_uint(enum vc_out out, const char *key, const char *fmt,
		   unsigned long long v);
void vc_print_int(enum vc_out out, const char *key, const char *fmt,
		  long long v);
/* JSON: six decimals. */
void vc_print_float(enum vc_out out, const char *key, const char *fmt,
		    double v);
void vc_print_str(enum vc_out out, const char *key, const char *fmt,
		  const char *v);
void vc_print_bool(enum vc_out out, const char *key, const char *fmt,
		   bool v);
/* Text only: printf(@fmt, ...). */
void vc_print_text(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* The printer behind these calls, for the tools' common printers. */
struct vcube_print *vc_printer(void);

#endif /* VCUBECTL_PRINT_H */
