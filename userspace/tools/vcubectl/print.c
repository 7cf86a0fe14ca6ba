// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl's one printer of text and JSON (print.h), on the tools' own
 * (common/json_print.h): compact, one line per output, or with -p
 * indented two spaces a level. The outer level is written as it goes, a
 * list's entries each whole as it ends, so that a long trace's JSON is
 * never all in memory.
 */
#include <stdarg.h>
#include <stdio.h>

#include <json-c/json.h>

#include "common/json_print.h"
#include "vcubectl/print.h"

static bool json, pretty;
static struct vcube_print out;

/* The printer, as -j and -p set it. */
static struct vcube_print *pr(void)
{
	if (!out.f)
		vcube_print_init(&out, stdout, json, pretty ?
				 JSON_C_TO_STRING_PRETTY |
				 JSON_C_TO_STRING_SPACED :
				 JSON_C_TO_STRING_PLAIN, 1);
	return &out;
}

struct vcube_print *vc_printer(void)
{
	return pr();
}

void vc_print_mode(bool j)
{
	json = j;
	out.f = NULL;
}

bool vc_json(void)
{
	return json;
}

void vc_print_pretty(bool p)
{
	pretty = p;
	out.f = NULL;
}

void vc_open(const char *key, char kind)
{
	vcube_print_open(pr(), key, kind);
}

void vc_close(char kind)
{
	(void)kind;
	vcube_print_close(pr());
}

void vc_end(void)
{
	vcube_print_end(pr());
}

/* vcubectl's forms are the printer's. */
static enum vcube_print_form form(enum vc_out o)
{
	return (o & VC_JSON ? VCUBE_PRINT_JSON : 0) |
	       (o & VC_TEXT ? VCUBE_PRINT_TEXT : 0);
}

void vc_print_uint(enum vc_out o, const char *key, const char *fmt,
		   unsigned long long v)
{
	vcube_print_uint(pr(), form(o), key, fmt, v);
}

void vc_print_int(enum vc_out o, const char *key, const char *fmt,
		  long long v)
{
	vcube_print_int(pr(), form(o), key, fmt, v);
}

void vc_print_float(enum vc_out o, const char *key, const char *fmt,
		    double v)
{
	vcube_print_real(pr(), form(o), key, fmt, 6, v);
}

void vc_print_str(enum vc_out o, const char *key, const char *fmt,
		  const char *v)
{
	vcube_print_str(pr(), form(o), key, fmt, v);
}

void vc_print_bool(enum vc_out o, const char *key, const char *fmt,
		   bool v)
{
	vcube_print_bool(pr(), form(o), key, fmt, v);
}

void vc_print_text(const char *fmt, ...)
{
	va_list ap;

	if (json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}
