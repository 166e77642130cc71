# The training recipe of every network in nets/ since freestyle generation 2 (renju
# ones included), sourced by train.sh and learning_curve.sh so that both train alike: a
# residual network (a learnt correction to the classical evaluation), the value target
# mostly the search's score, the rate falling linearly to a tenth. EPOCHS (default 3);
# HOLDOUT (the games of one opening in N held out, default 20; tiny test sets need a
# smaller N).
# With NET (the previous generation), training goes on from its weights at a quarter of
# the rate for 2 epochs: renju generation 1 this way beat one trained from random
# weights on more data, in a seventh of the time (docs/strength-log.md, session 82).
# shellcheck shell=bash
# shellcheck disable=SC2034
# What a network is scored with too (`train --init NET --epochs 0`): the value target
# depends on the result weight.
SCORE_RECIPE=(--residual --result-weight 0.2)
TRAIN_RECIPE=("${SCORE_RECIPE[@]}" --final-rate 0.1 --holdout "${HOLDOUT:-20}")
if [ -n "${NET:-}" ]; then
    TRAIN_RECIPE+=(--init "$NET" --learning-rate 0.001 --epochs "${EPOCHS:-2}")
else
    TRAIN_RECIPE+=(--learning-rate 0.004 --epochs "${EPOCHS:-3}")
fi
