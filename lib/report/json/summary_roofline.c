/*
 * Reads summary.json's `peaks` back into the session (see summary_roofline.h). The member is
 * written only by sessions whose plan had `roofline:`, so its absence is the common case.
 */
#include "report/json/summary_roofline.h"
#include "report/core/summary_keys.h"

#include <stdlib.h>

int hp__summary_read_peaks(const hp__sf *rc, hp_session *s)
{
  hp__sf pk;
  hp_peaks *p;
  int e;

  if ((e = hp__sf_object(rc, HP__K_SESSION_PEAKS, HP__SF_OPTIONAL, &pk)) != 0 || pk.obj == NULL)
    return e;
  if ((p = malloc(sizeof(*p))) == NULL)
    return HP_ENOMEM;
  hp_peaks_init(p);
  if ((e = hp__sf_str(&pk, HP__K_PEAKS_DEVICE, HP__SF_OPTIONAL, &p->device)) != 0 ||
      (e = hp__sf_str(&pk, HP__K_PEAKS_SOURCE, HP__SF_OPTIONAL, &p->source)) != 0 ||
      (e = hp__sf_num(&pk, HP__K_PEAKS_BW, HP__SF_OPTIONAL, &p->bw_gbs)) != 0 ||
      (e = hp__sf_num(&pk, HP__K_PEAKS_FP32, HP__SF_OPTIONAL, &p->fp32_tflops)) != 0 ||
      (e = hp__sf_num(&pk, HP__K_PEAKS_FP64, HP__SF_OPTIONAL, &p->fp64_tflops)) != 0 ||
      (e = hp__sf_num(&pk, HP__K_PEAKS_FP16, HP__SF_OPTIONAL, &p->fp16_tflops)) != 0 ||
      (e = hp__sf_num(&pk, HP__K_PEAKS_BF16, HP__SF_OPTIONAL, &p->bf16_tflops)) != 0 ||
      (e = hp__sf_num(&pk, HP__K_PEAKS_TF32, HP__SF_OPTIONAL, &p->tf32_tflops)) != 0 ||
      (e = hp__sf_num(&pk, HP__K_PEAKS_FP8, HP__SF_OPTIONAL, &p->fp8_tflops)) != 0 ||
      (e = hp__sf_num(&pk, HP__K_PEAKS_INT8, HP__SF_OPTIONAL, &p->int8_tops)) != 0 ||
      (e = hp__sf_num(&pk, HP__K_PEAKS_FP64M, HP__SF_OPTIONAL, &p->fp64_matrix_tflops)) != 0 ||
      (e = hp__sf_str(&pk, HP__K_PEAKS_MSOURCE, HP__SF_OPTIONAL, &p->matrix_source)) != 0) {
    hp_peaks_clear(p);
    free(p);
    return e;
  }
  s->peaks = p;
  return 0;
}
