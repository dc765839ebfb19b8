/* order_params.h — fitted move-ordering tables (OrderWeights in engine.h) per
 * rule set, from `tengen tune order` (docs/tuning.md). A rule left out (own
 * 0) orders by threat classes and evaluation worths (ORDER_ATTACK/DEFEND in
 * eval_params.h). */
#ifndef TENGEN_ORDER_PARAMS_H
#define TENGEN_ORDER_PARAMS_H

#include <stdbool.h>

#include "tengen/engine.h"

typedef struct {
    bool own;
    OrderWeights w;
} OrderParams;

/* clang-format off */
static const OrderParams ORDER_PARAMS[RULE_COUNT] = {
    [RULE_FREESTYLE] = {.own = false},
};
/* clang-format on */

#endif
