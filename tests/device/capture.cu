#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
__global__ void write_past_end(float*a,int n){int i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n+32)a[i]=1.0f;}
__global__ void read_uninit(const float*in,float*out,int n){int i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n)out[i]=in[i]*2.0f;}
__global__ void shared_race(int*out){__shared__ int w;w=threadIdx.x;out[threadIdx.x]=w;}
__global__ void fill(float*a,int n){int i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n)a[i]=1.0f;}
__global__ void twice(const float*in,float*out,int n){int i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n)out[i]=in[i]*2.0f;}
__global__ void step_scale(float*a,int n){int i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n)a[i]*=1.0001f;}
__global__ void step_add(float*a,const float*b,int n){int i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n)a[i]+=b[i];}
int main(int c,char**v){const int n=1000;float*a,*b;int*o;
cudaMalloc(&a,n*4);cudaMalloc(&b,n*4);
if(v[1][0]=='b'){void*l;cudaMalloc(&o,1024);cudaMalloc(&l,4096);write_past_end<<<4,256>>>(a,n);cudaDeviceSynchronize();
read_uninit<<<4,256>>>(b,a,n);cudaDeviceSynchronize();shared_race<<<1,256>>>(o);cudaDeviceSynchronize();
cudaMemcpy(NULL,a,16,cudaMemcpyDeviceToHost);cudaFree(o);}
else if(v[1][0]=='c'){fill<<<4,256>>>(a,n);twice<<<4,256>>>(a,b,n);cudaDeviceSynchronize();}
else{int it=atoi(v[2]),m=1<<16;float ms;cudaEvent_t e0,e1;cudaFree(a);cudaFree(b);cudaMalloc(&a,m*4);cudaMalloc(&b,m*4);
cudaEventCreate(&e0);cudaEventCreate(&e1);fill<<<m/256,256>>>(a,m);fill<<<m/256,256>>>(b,m);cudaDeviceSynchronize();
nvtxRangePushA("timed");cudaEventRecord(e0);for(int k=0;k<it;k++){step_scale<<<m/256,256>>>(a,m);step_add<<<m/256,256>>>(a,b,m);}
cudaEventRecord(e1);cudaEventSynchronize(e1);nvtxRangePop();cudaEventElapsedTime(&ms,e0,e1);twice<<<m/256,256>>>(a,b,m);cudaDeviceSynchronize();
printf("iterations=%d\nmean_iter_ms=%.6f\nlaunches=%d\n",it,ms/it,2*it);}
cudaFree(a);cudaFree(b);printf("done\n");return 0;}
