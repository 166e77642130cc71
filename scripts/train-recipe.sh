# The training recipe of every network in nets/ since freestyle generation 2 (renju
# ones included), sourced by train.sh and learning_curve.sh so that both train alike: a
# residual network (a learnt correction to the classical evaluation), the value target
# mostly the search's score, the rate falling linearly to a tenth. EPOCHS (default 3).
# shellcheck shell=bash
# shellcheck disable=SC2034
TRAIN_RECIPE=(--residual --result-weight 0.2 --learning-rate 0.004 --final-rate 0.1 --epochs "${EPOCHS:-3}")
