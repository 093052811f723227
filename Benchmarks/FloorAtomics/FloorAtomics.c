// The functions are inline, in the header; a C target needs a source file of its own.
#include "FloorAtomics.h"
