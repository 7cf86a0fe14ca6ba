// SPDX-License-Identifier: GPL-2.0
/*
 * The tools' printer of text and JSON (userspace/tools/common/
 * json_print.c), on its own: one document printed as text, compact JSON
 * and pretty JSON, with every outer part written as it goes or built
 * (stream 0 to 3) -- the same text each way; pretty is what python's
 * json.dumps(indent=2, ensure_ascii=False) writes (empty containers as
 * [] and {}); an array's elements one a line with VCUBE_PRINT_LINES; a
 * string with a quote, a backslash, controls and UTF-8 read back by
 * json-c as it was.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "check.h"
#include "common/json_print.h"

#define ODD "q\"\\\t\x01\xc3\xa9"

static void doc(struct vcube_print *p)
{
	vcube_print_open(p, NULL, '{');
	vcube_print_str(p, VCUBE_PRINT_ANY, "name", "name %s", ODD);
	vcube_print_uint(p, VCUBE_PRINT_ANY, "n", " n %llu\n", 7);
	vcube_print_open(p, "list", '[');
	vcube_print_open(p, NULL, '{');
	vcube_print_real(p, VCUBE_PRINT_ANY, "r", "%.1f", VCUBE_PRINT_G, 0.25);
	vcube_print_open(p, "e", '[');
	vcube_print_close(p);
	vcube_print_text(p, "\n");
	vcube_print_close(p);
	vcube_print_open(p, NULL, '{');
	vcube_print_null(p, VCUBE_PRINT_ANY, "r", "-");
	vcube_print_open(p, "o", '{');
	vcube_print_close(p);
	vcube_print_text(p, "\n");
	vcube_print_close(p);
	vcube_print_close(p);
	vcube_print_open(p, "none", '[');
	vcube_print_close(p);
	vcube_print_bool(p, VCUBE_PRINT_JSON, "ok", NULL, true);
	vcube_print_int(p, VCUBE_PRINT_TEXT, NULL, "%lld\n", -3);
	vcube_print_close(p);
}

/* The document as a printer set up so writes it; malloc'd. */
static char *print(bool json, int flags, unsigned int stream, int *err)
{
	struct vcube_print p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	vcube_print_init(&p, f, json, flags, stream);
	doc(&p);
	*err = vcube_print_end(&p);
	fclose(f);
	return buf;
}

static const char compact[] =
	"{\"name\":\"q\\\"\\\\\\t\\u0001\xc3\xa9\",\"n\":7,\"list\":"
	"[{\"r\":0.25,\"e\":[]},{\"r\":null,\"o\":{}}],\"none\":[],"
	"\"ok\":true}\n";

static const char lines[] =
	"{\"name\":\"q\\\"\\\\\\t\\u0001\xc3\xa9\",\"n\":7,\"list\":[\n"
	"{\"r\":0.25,\"e\":[]},\n"
	"{\"r\":null,\"o\":{}}\n"
	"],\"none\":[\n"
	"],\"ok\":true}\n";

static const char pretty[] =
	"{\n"
	"  \"name\": \"q\\\"\\\\\\t\\u0001\xc3\xa9\",\n"
	"  \"n\": 7,\n"
	"  \"list\": [\n"
	"    {\n"
	"      \"r\": 0.25,\n"
	"      \"e\": []\n"
	"    },\n"
	"    {\n"
	"      \"r\": null,\n"
	"      \"o\": {}\n"
	"    }\n"
	"  ],\n"
	"  \"none\": [],\n"
	"  \"ok\": true\n"
	"}\n";

static const char text[] = "name " ODD " n 7\n0.2\n-\n-3\n";

/* json-c reads @s back, its name as it was written. */
static bool read_back(const char *s)
{
	struct json_object *d = json_tokener_parse(s), *v;
	bool ok = json_object_object_get_ex(d, "name", &v) &&
		  !strcmp(json_object_get_string(v), ODD);

	json_object_put(d);
	return ok;
}

int main(void)
{
	unsigned int stream;
	char *got;
	int err;

	for (stream = 0; stream <= 3; stream++) {
		got = print(true, JSON_C_TO_STRING_PLAIN, stream, &err);
		CHECK(got && !err && !strcmp(got, compact),
		      "compact, stream %u:\n%s", stream, got ? got : "");
		CHECK(got && read_back(got), "read back, stream %u", stream);
		free(got);
		got = print(true, JSON_C_TO_STRING_PRETTY |
			    JSON_C_TO_STRING_SPACED, stream, &err);
		CHECK(got && !err && !strcmp(got, pretty),
		      "pretty, stream %u:\n%s", stream, got ? got : "");
		free(got);
		got = print(false, JSON_C_TO_STRING_PLAIN, stream, &err);
		CHECK(got && !err && !strcmp(got, text), "text, stream %u:\n%s",
		      stream, got ? got : "");
		free(got);
	}
	got = print(true, JSON_C_TO_STRING_PLAIN | VCUBE_PRINT_LINES, 2, &err);
	CHECK(got && !err && !strcmp(got, lines), "lines:\n%s", got ? got : "");
	free(got);
	return check_done("json_print_test");
}
