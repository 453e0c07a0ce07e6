// Frequency continuation: the survey low-passed band after band.
#pragma once
#include "revwave/survey/survey.hpp"

namespace revwave {

// The survey in a band: every shot's data and source signature low-passed with the same
// zero-phase Butterworth filter (cut-off in Hz, order 4, run forward and backward). A shot without
// a sampled signature gets its Ricker wavelet sampled first. The filter is not causal: the filtered
// wavelet starts before t = 0. So that the data of the filtered wavelet are the filtered data (the
// wave equation is linear and time-invariant), each shot's time axis is extended by
// band_lead_periods periods of the cut-off before its first sample, data and wavelet being zero
// there (the medium is at rest before the source acts), and both are filtered on the extended
// axis: the precursor is injected, not cut. (Near the record's end the filter still sees the data's
// reflected extension, which no model reproduces: a small part of the band's misfit.)
// cutoff 0: the survey as it is.
inline constexpr double band_lead_periods = 3.0;
Survey band_survey(const Survey& survey, double cutoff_hz);

// Every band against every shot, before any work: a cut-off below the shot's Nyquist frequency, and
// of at least one period within its record (a lower one resolves nothing in it, and its lead, three
// periods, would outgrow the record), so that the lead is at most three records long; and the
// low-passed copy of the survey (its lead included) against the memory available. InputError naming
// --bands, the shot and the rule; OutOfMemoryError naming the band.
void check_bands(const Survey& survey, const std::vector<double>& cutoffs_hz);
// Samples a shot's time axis gains in front in a band (three periods of the cut-off), in checked arithmetic.
index_t band_lead(const Shot& shot, double cutoff_hz);

}  // namespace revwave
