/* SPDX-License-Identifier: MIT */
/* The module ltt._ltt (pyltt.h); python/ltt/__init__.py is the module users import. */
#include "pyltt.h"

static PyMethodDef methods[] = {
	{ "open", (PyCFunction)(void (*)(void))pyltt_open, METH_VARARGS | METH_KEYWORDS,
	  "open(paths, facility=None, event=None, cpu=None, from_=None, to=None, all=False, all_snapshots=False)"
	  " -> (Trace, notes)" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "ltt._ltt",
	.m_doc = "ltt traces in Python: the C part (doc/python.md)",
	.m_size = -1,
	.m_methods = methods,
};

PyMODINIT_FUNC PyInit__ltt(void);

/* PyModule_AddObjectRef (3.10): the module gets a reference of its own */
static int add_ref(PyObject *m, const char *name, PyObject *o)
{
	Py_INCREF(o);
	if (PyModule_AddObject(m, name, o)) {
		Py_DECREF(o);
		return -1;
	}
	return 0;
}

PyMODINIT_FUNC PyInit__ltt(void)
{
	PyObject *m;

	if ((!pyltt_trace_type && pyltt_trace_init()) || (!pyltt_event_type && pyltt_events_init()) ||
	    (!pyltt_column_type && pyltt_column_init()))
		return NULL;
	m = PyModule_Create(&module);
	if (!m)
		return NULL;
	pyltt_error = PyErr_NewExceptionWithDoc("ltt.Error", "A trace that cannot be read: the message names the file "
						"(and the offset or XML line) at fault", PyExc_OSError, NULL);
	if (!pyltt_error || add_ref(m, "Error", pyltt_error) || add_ref(m, "Trace", (PyObject *)pyltt_trace_type) ||
	    add_ref(m, "Event", (PyObject *)pyltt_event_type) || add_ref(m, "Column", (PyObject *)pyltt_column_type) ||
	    PyModule_AddStringConstant(m, "version", LTT_VERSION) ||
	    PyModule_AddIntConstant(m, "limited_api", Py_LIMITED_API)) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
