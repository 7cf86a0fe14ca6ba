// SPDX-License-Identifier: GPL-2.0
/*
 * vcubectl's one printer of text and JSON (print.h). JSON is written
 * compact, one line per output, or with -p indented two spaces a level.
 */
#include <stdarg.h>
#include <stdio.h>

#include "vcubectl/print.h"

#define DEPTH	8

static bool json, pretty;
static unsigned int depth;
static bool first[DEPTH] = { true };	/* nothing yet at this level */

void vc_print_mode(bool j)
{
	json = j;
}

bool vc_json(void)
{
	return json;
}

void vc_print_pretty(bool p)
{
	pretty = p;
}

/* -p: a new line, indented to the current depth. */
static void indent(unsigned int d)
{
	if (pretty)
		printf("\n%*s", 2 * d, "");
}

/* A JSON value's comma and key, if any. */
static void lead(const char *key)
{
	if (!first[depth])
		putchar(',');
	first[depth] = false;
	if (depth)
		indent(depth);
	if (key)
		printf(pretty ? "\"%s\": " : "\"%s\":", key);
}

void vc_open(const char *key, char kind)
{
	if (!json)
		return;
	lead(key);
	putchar(kind);
	if (depth + 1 < DEPTH)
		first[++depth] = true;
}

void vc_close(char kind)
{
	if (!json)
		return;
	if (depth && !first[depth])
		indent(depth - 1);
	putchar(kind == '{' ? '}' : ']');
	if (depth)
		depth--;
}

void vc_end(void)
{
	if (json)
		putchar('\n');
	first[0] = true;
	depth = 0;
}

static void json_string(const char *v)
{
	const char *p;

	putchar('"');
	for (p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			putchar('\\');
		if ((unsigned char)*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

/*
 * The common start of every value: nothing if it is not for this form;
 * in text, print it by @fmt (the value in the arguments); in JSON, its
 * comma and key. True when the caller prints the JSON value.
 */
static bool begin(enum vc_out out, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (!(out & (json ? VC_JSON : VC_TEXT)))
		return false;
	if (!json) {
		if (fmt) {
			va_start(ap, fmt);
			vprintf(fmt, ap);
			va_end(ap);
		}
		return false;
	}
	lead(key);
	return true;
}

void vc_print_uint(enum vc_out out, const char *key, const char *fmt,
		   unsigned long long v)
{
	if (begin(out, key, fmt, v))
		printf("%llu", v);
}

void vc_print_int(enum vc_out out, const char *key, const char *fmt,
		  long long v)
{
	if (begin(out, key, fmt, v))
		printf("%lld", v);
}

void vc_print_float(enum vc_out out, const char *key, const char *fmt,
		    double v)
{
	if (begin(out, key, fmt, v))
		printf("%.6f", v);
}

void vc_print_str(enum vc_out out, const char *key, const char *fmt,
		  const char *v)
{
	if (begin(out, key, fmt, v))
		json_string(v);
}

void vc_print_bool(enum vc_out out, const char *key, const char *fmt,
		   bool v)
{
	if (begin(out, key, fmt, v ? "true" : "false"))
		fputs(v ? "true" : "false", stdout);
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
