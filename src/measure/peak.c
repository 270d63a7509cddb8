/* SPDX-License-Identifier: MIT */
/* BW peak reporting: no completed window means no peak (n/a), not the average. */
#include "config.h"
#include <math.h>
#include "peak.h"

double gdr_peak_report(double peak_Bps)
{
	return peak_Bps > 0 ? peak_Bps : NAN;
}
