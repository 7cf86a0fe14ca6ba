/* SPDX-License-Identifier: MIT */
/*
 * The tools' one printer of text and JSON, after iproute2's json_print:
 * one call per value prints it either as text, by its printf format, or
 * as a JSON member under its key (an array's element: no key), as the
 * printer was set up (-j). @form says which output a value belongs to
 * (VCUBE_PRINT_ANY: both; _JSON: JSON only, e.g. a raw ns count; _TEXT:
 * text only, e.g. the same in us). json-c writes every JSON value, so
 * strings are escaped by it and nowhere else.
 *
 * One document after another: opening a container at the top begins
 * one, closing it writes its end and a newline. The outermost @stream
 * levels of a document are written as they go (their brackets, commas
 * and keys), each member as soon as it is whole; deeper levels are built
 * in memory and written, by json-c with @flags, when they close. So a
 * run's rows are out as each one ends (@stream 2: the object and its
 * array of rows), and a long list never is in memory as JSON. Pretty
 * (JSON_C_TO_STRING_PRETTY), the streamed levels are indented as json-c
 * indents, and an empty container is [] or {}: the text is python's
 * json.dumps(indent=2). VCUBE_PRINT_LINES: else compact, the elements of
 * a streamed array one a line.
 */
#ifndef VCUBE_TOOLS_JSON_PRINT_H
#define VCUBE_TOOLS_JSON_PRINT_H

#include <stdbool.h>
#include <stdio.h>

struct json_object;

enum vcube_print_form {
	VCUBE_PRINT_JSON = 1,
	VCUBE_PRINT_TEXT = 2,
	VCUBE_PRINT_ANY = 3,
};

#define VCUBE_PRINT_DEPTH	8
/* vcube_print_real(): JSON as "%g", the shortest. */
#define VCUBE_PRINT_G		(-1)
/* With json-c's flags: a streamed array's elements one a line. */
#define VCUBE_PRINT_LINES	(1 << 30)

struct vcube_print {
	FILE *f;
	bool json, lines;
	int flags;		/* json-c's JSON_C_TO_STRING_* */
	unsigned int stream;	/* the outer levels written as they go */
	unsigned int depth;
	int err;		/* the first failure, -errno */
	struct {
		struct json_object *obj;	/* NULL: streamed */
		char *key;		/* built in a streamed parent: its key */
		unsigned int n;		/* streamed: members written */
		bool array;
	} lv[VCUBE_PRINT_DEPTH];
};

/*
 * Print to @f, JSON if @json (else text), as json-c's @flags say
 * (JSON_C_TO_STRING_PLAIN, _SPACED, _PRETTY; '/' is never escaped) and
 * VCUBE_PRINT_LINES, the outer @stream levels as they go.
 */
void vcube_print_init(struct vcube_print *o, FILE *f, bool json, int flags,
		      unsigned int stream);
/* A JSON object ('{') or array ('['), under @key inside an object. */
void vcube_print_open(struct vcube_print *o, const char *key, char kind);
void vcube_print_close(struct vcube_print *o);
/* Close whatever is open and flush: 0, or the first failure (-errno). */
int vcube_print_end(struct vcube_print *o);

void vcube_print_uint(struct vcube_print *o, enum vcube_print_form form,
		      const char *key, const char *fmt, unsigned long long v);
void vcube_print_int(struct vcube_print *o, enum vcube_print_form form,
		     const char *key, const char *fmt, long long v);
/* JSON: @prec digits after the point, or VCUBE_PRINT_G. */
void vcube_print_real(struct vcube_print *o, enum vcube_print_form form,
		      const char *key, const char *fmt, int prec, double v);
void vcube_print_str(struct vcube_print *o, enum vcube_print_form form,
		     const char *key, const char *fmt, const char *v);
/* Text: @fmt with "true" or "false". */
void vcube_print_bool(struct vcube_print *o, enum vcube_print_form form,
		      const char *key, const char *fmt, bool v);
/* JSON's null; text: @fmt as it is. */
void vcube_print_null(struct vcube_print *o, enum vcube_print_form form,
		      const char *key, const char *fmt);
/* A value json-c built, in JSON only; the printer takes it (put). */
void vcube_print_value(struct vcube_print *o, const char *key,
		       struct json_object *v);
/* Text only: fprintf(f, @fmt, ...). */
void vcube_print_text(struct vcube_print *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A number as json-c writes it: @prec digits after the point, or %g. */
struct json_object *vcube_json_real(double v, int prec);

#endif /* VCUBE_TOOLS_JSON_PRINT_H */
