/* opening_book.h — balanced three-stone openings (renju notation, 15x15,
 * black white black) for the swap2 opener under freestyle and standard. */
#ifndef TENGEN_OPENING_BOOK_H
#define TENGEN_OPENING_BOOK_H

extern const char *const OPENING_BOOK_FREE[];
extern const int OPENING_BOOK_FREE_COUNT;

#endif
