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

PyMODINIT_FUNC PyInit__ltt(void)
{
	PyObject *m;

	if (pyltt_numpy_init())
		return NULL;
	if (PyType_Ready(&pyltt_trace_type) || PyType_Ready(&pyltt_event_type) || PyType_Ready(&pyltt_iter_type))
		return NULL;
	m = PyModule_Create(&module);
	if (!m)
		return NULL;
	pyltt_error = PyErr_NewExceptionWithDoc("ltt.Error", "A trace that cannot be read: the message names the file "
						"(and the offset or XML line) at fault", PyExc_OSError, NULL);
	if (!pyltt_error || PyModule_AddObjectRef(m, "Error", pyltt_error) ||
	    PyModule_AddObjectRef(m, "Trace", (PyObject *)&pyltt_trace_type) ||
	    PyModule_AddObjectRef(m, "Event", (PyObject *)&pyltt_event_type) ||
	    PyModule_AddStringConstant(m, "version", LTT_VERSION)) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
