#include <unicode/uidna.h>
#include <unicode/uvernum.h>
