// SPDX-License-Identifier: MIT
/*
 * The tools' printer of text and JSON (json_print.h), on json-c: the
 * levels of a document written as they go have their brackets, commas
 * and keys put here, every value (and key) is json-c's text. Pretty,
 * those levels are laid out as json-c lays out the rest.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/json_print.h"

void vcube_print_init(struct vcube_print *o, FILE *f, bool json, int flags,
		      unsigned int stream)
{
	*o = (struct vcube_print){ .f = f, .json = json, .stream = stream,
				   .lines = flags & VCUBE_PRINT_LINES,
				   .flags = (flags & ~VCUBE_PRINT_LINES) |
					    JSON_C_TO_STRING_NOSLASHESCAPE };
}

static bool pretty(const struct vcube_print *o)
{
	return o->flags & JSON_C_TO_STRING_PRETTY;
}

/* Pretty: a new line, indented to depth @d. */
static void indent(struct vcube_print *o, unsigned int d)
{
	fprintf(o->f, "\n%*s", 2 * d, "");
}

static void fail(struct vcube_print *o, int err)
{
	if (!o->err)
		o->err = err;
}

/*
 * json-c's text of @v, written, and @v put. Pretty, it goes on at the
 * current depth (a string holds no raw newline: every one is layout),
 * and an empty array or object is [] or {}, as python's json.dumps has.
 */
static void put(struct vcube_print *o, struct json_object *v)
{
	const char *s = json_object_to_json_string_ext(v, o->flags), *e;

	for (; pretty(o) && *s; s++) {
		e = *s == '[' || *s == '{' ? s + 1 + strspn(s + 1, "\n ") : s;
		if ((*s == '[' && *e == ']') || (*s == '{' && *e == '}')) {
			fputc(*s, o->f);
			s = e;
		}
		if (*s == '\n')
			indent(o, o->depth);
		else
			fputc(*s, o->f);
	}
	fputs(s, o->f);
	json_object_put(v);
}

/* In a streamed level: the comma, the new line or the key before a member. */
static void lead(struct vcube_print *o, const char *key)
{
	unsigned int d = o->depth - 1;

	if (o->lv[d].n++)
		fputc(',', o->f);
	if (pretty(o))
		indent(o, o->depth);
	else if (o->lv[d].array && o->lines)
		fputc('\n', o->f);
	if (o->lv[d].array)
		return;
	put(o, json_object_new_string(key ? key : ""));
	fputs(o->flags & JSON_C_TO_STRING_SPACED ? ": " : ":", o->f);
}

/* The end of a document: its newline, flushed. */
static void doc_end(struct vcube_print *o)
{
	fputc('\n', o->f);
	fflush(o->f);
	if (ferror(o->f))
		fail(o, -EIO);
}

/* Value @v (taken) under @key in the innermost level, or a document. */
static void add(struct vcube_print *o, const char *key, struct json_object *v)
{
	struct json_object *in = o->depth ? o->lv[o->depth - 1].obj : NULL;

	if (!o->depth) {
		put(o, v);
		doc_end(o);
	} else if (!in) {
		lead(o, key);
		put(o, v);
	} else if (json_object_is_type(in, json_type_array)) {
		if (json_object_array_add(in, v))
			fail(o, -ENOMEM);
	} else if (json_object_object_add(in, key ? key : "", v)) {
		fail(o, -ENOMEM);
	}
}

void vcube_print_open(struct vcube_print *o, const char *key, char kind)
{
	unsigned int d = o->depth;
	struct json_object *c;

	if (!o->json)
		return;
	if (d == VCUBE_PRINT_DEPTH) {
		fail(o, -E2BIG);
		return;
	}
	o->lv[d].array = kind == '[';
	o->lv[d].n = 0;
	o->lv[d].key = NULL;
	o->lv[d].obj = NULL;
	if (d < o->stream) {
		if (d)
			lead(o, key);
		fputc(kind, o->f);
		o->depth++;
		return;
	}
	c = o->lv[d].array ? json_object_new_array() : json_object_new_object();
	if (!c)
		fail(o, -ENOMEM);
	if (d && o->lv[d - 1].obj) {
		add(o, key, json_object_get(c));	/* a second reference */
	} else if (d && !o->lv[d - 1].array && key) {
		o->lv[d].key = strdup(key);
		if (!o->lv[d].key)
			fail(o, -ENOMEM);
	}
	o->lv[d].obj = c;
	o->depth++;
}

void vcube_print_close(struct vcube_print *o)
{
	unsigned int d;

	if (!o->json || !o->depth)
		return;
	d = --o->depth;
	if (!o->lv[d].obj) {
		if (pretty(o) && o->lv[d].n)
			indent(o, d);
		else if (o->lv[d].array && o->lines && !pretty(o))
			fputc('\n', o->f);
		fputc(o->lv[d].array ? ']' : '}', o->f);
		if (!d)
			doc_end(o);
		return;
	}
	/* built: its parent holds it already, or it is written now */
	if (d && o->lv[d - 1].obj)
		json_object_put(o->lv[d].obj);
	else
		add(o, o->lv[d].key, o->lv[d].obj);
	free(o->lv[d].key);
	o->lv[d].key = NULL;
	o->lv[d].obj = NULL;
}

int vcube_print_end(struct vcube_print *o)
{
	while (o->json && o->depth)
		vcube_print_close(o);
	if (fflush(o->f) || ferror(o->f))
		fail(o, -EIO);
	return o->err;
}

/* Text: @fmt with its arguments, if the value is for text and has one. */
static bool text(struct vcube_print *o, enum vcube_print_form form,
		 const char *fmt, ...)
{
	va_list ap;

	if (o->json || !(form & VCUBE_PRINT_TEXT))
		return false;
	if (fmt) {
		va_start(ap, fmt);
		vfprintf(o->f, fmt, ap);
		va_end(ap);
	}
	return true;
}

/* Is a value of @form for JSON, and was its json-c value made? */
static bool json(struct vcube_print *o, enum vcube_print_form form)
{
	return o->json && (form & VCUBE_PRINT_JSON);
}

static void add_new(struct vcube_print *o, const char *key,
		    struct json_object *v)
{
	if (!v)
		fail(o, -ENOMEM);
	add(o, key, v);
}

void vcube_print_uint(struct vcube_print *o, enum vcube_print_form form,
		      const char *key, const char *fmt, unsigned long long v)
{
	if (!text(o, form, fmt, v) && json(o, form))
		add_new(o, key, json_object_new_uint64(v));
}

void vcube_print_int(struct vcube_print *o, enum vcube_print_form form,
		     const char *key, const char *fmt, long long v)
{
	if (!text(o, form, fmt, v) && json(o, form))
		add_new(o, key, json_object_new_int64(v));
}

struct json_object *vcube_json_real(double v, int prec)
{
	char s[64];

	if (prec < 0)
		snprintf(s, sizeof(s), "%g", v);
	else
		snprintf(s, sizeof(s), "%.*f", prec, v);
	return json_object_new_double_s(v, s);
}

void vcube_print_real(struct vcube_print *o, enum vcube_print_form form,
		      const char *key, const char *fmt, int prec, double v)
{
	if (!text(o, form, fmt, v) && json(o, form))
		add_new(o, key, vcube_json_real(v, prec));
}

void vcube_print_str(struct vcube_print *o, enum vcube_print_form form,
		     const char *key, const char *fmt, const char *v)
{
	if (!text(o, form, fmt, v) && json(o, form))
		add_new(o, key, json_object_new_string(v));
}

void vcube_print_bool(struct vcube_print *o, enum vcube_print_form form,
		      const char *key, const char *fmt, bool v)
{
	if (!text(o, form, fmt, v ? "true" : "false") && json(o, form))
		add_new(o, key, json_object_new_boolean(v));
}

void vcube_print_null(struct vcube_print *o, enum vcube_print_form form,
		      const char *key, const char *fmt)
{
	if (!text(o, form, fmt ? "%s" : NULL, fmt) && json(o, form))
		add(o, key, NULL);
}

void vcube_print_value(struct vcube_print *o, const char *key,
		       struct json_object *v)
{
	if (o->json)
		add_new(o, key, v);
	else
		json_object_put(v);
}

void vcube_print_text(struct vcube_print *o, const char *fmt, ...)
{
	va_list ap;

	if (o->json)
		return;
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}
