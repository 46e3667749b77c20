/* SPDX-License-Identifier: MIT */
/* Values of a trace as Python objects (pyltt.h): the same values `ltt dump --format=json` prints,
 * with Python's types. Integers as int, enums as their label (the number when no label has that
 * value), floats as float (NaN and infinities kept: JSON writes them null), strings as str,
 * arrays and sequences as list, structs as dict, a union as a dict of its selected field. */
#include <math.h>

#include "pyltt.h"

PyObject *pyltt_str(const char *s, size_t n)
{
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "replace");
}

PyObject *pyltt_value(const struct ltt_value *v)
{
	struct ltt_value c;
	PyObject *r, *o;
	const char *s;
	size_t n;
	int ret;

	switch (v->type->kind) {
	case LTT_TYPE_INT:
		return PyLong_FromLongLong(ltt_value_int(v));
	case LTT_TYPE_UINT:
		return PyLong_FromUnsignedLongLong(ltt_value_uint(v));
	case LTT_TYPE_FLOAT:
		return PyFloat_FromDouble(ltt_value_float(v));
	case LTT_TYPE_ENUM:
		s = ltt_value_enum_label(v);
		return s ? PyUnicode_FromString(s) : PyLong_FromUnsignedLongLong(ltt_value_uint(v));
	case LTT_TYPE_STRING:
		s = ltt_value_string(v, &n);
		return pyltt_str(s, n);
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		r = PyList_New(0);
		for (ret = ltt_value_first(v, &c); r && !ret; ret = ltt_value_next(v, &c)) {
			o = pyltt_value(&c);
			if (!o || PyList_Append(r, o))
				Py_CLEAR(r);
			Py_XDECREF(o);
		}
		return r;
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		r = PyDict_New();
		for (ret = ltt_value_first(v, &c); r && !ret; ret = ltt_value_next(v, &c)) {
			o = pyltt_value(&c);
			if (!o || PyDict_SetItemString(r, c.name, o))
				Py_CLEAR(r);
			Py_XDECREF(o);
		}
		return r;
	default:
		Py_RETURN_NONE;
	}
}
