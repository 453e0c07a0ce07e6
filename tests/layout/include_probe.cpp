// Compiled by the layout tests with one part's include path: includes the header the test names.
#include REVWAVE_PROBE_HEADER
