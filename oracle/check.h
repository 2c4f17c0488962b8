/* Moved to testing/check.h; this forwarder keeps existing includes building until they switch. */
#include "testing/check.h"
