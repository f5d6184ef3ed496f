#pragma once
void stored(float *p);
void assigned(float *p);
void handed(float *p);
void invoked(float *p);
void bound(float *p);
