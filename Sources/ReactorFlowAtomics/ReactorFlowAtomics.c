// The functions are inline, in the header; this file holds the one process-wide word.
#include "ReactorFlowAtomics.h"

intptr_t reactorflow_send_tokens_installed = 0;
