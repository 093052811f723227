#include "HeapStatistics.h"

#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>

size_t heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
size_t heap_bytes_in_use(void) {
    return 0;
}
#endif
