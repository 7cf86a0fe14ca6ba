/* SPDX-License-Identifier: MIT */
/*
 * vcube-mpi: the MPI subset a real program needs, over libvcube, so an
 * unmodified MPI C program runs on the modelled network:
 *
 *	vcube-mpicc prog.c -o prog && vcube-run -n 32 ./prog
 *
 * Every MPI process is one bound node; MPI_Wtime() is the node's virtual
 * clock. The subset and its limits: docs/mpi.md. A call outside it is not
 * declared here (the program fails to build), never a silent no-op.
 */
#ifndef VCUBE_MPI_H
#define VCUBE_MPI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION		3
#define MPI_SUBVERSION		1
#define VCUBE_MPI		1	/* this is vcube's MPI */

typedef struct vmpi_comm *MPI_Comm;
typedef struct vmpi_type *MPI_Datatype;
typedef struct vmpi_op *MPI_Op;
typedef struct vmpi_request *MPI_Request;
typedef struct vmpi_group *MPI_Group;
typedef int MPI_Errhandler;
typedef ptrdiff_t MPI_Aint;
typedef long long MPI_Count;
typedef long long MPI_Offset;
typedef int MPI_Fint;		/* a Fortran handle */

typedef struct MPI_Status {
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
	int vmpi_cancelled;
	size_t vmpi_bytes;
} MPI_Status;

/* Predefined objects: addresses of the library's own. */
extern struct vmpi_comm vmpi_comm_world, vmpi_comm_self;
extern struct vmpi_group vmpi_group_empty;
extern struct vmpi_type vmpi_char, vmpi_signed_char, vmpi_unsigned_char,
	vmpi_byte, vmpi_short, vmpi_unsigned_short, vmpi_int, vmpi_unsigned,
	vmpi_long, vmpi_unsigned_long, vmpi_long_long_int, vmpi_unsigned_long_long,
	vmpi_float, vmpi_double, vmpi_long_double, vmpi_c_bool, vmpi_int8_t,
	vmpi_int16_t, vmpi_int32_t, vmpi_int64_t, vmpi_uint8_t, vmpi_uint16_t,
	vmpi_uint32_t, vmpi_uint64_t, vmpi_wchar, vmpi_float_int, vmpi_double_int,
	vmpi_long_int, vmpi_2int, vmpi_short_int, vmpi_long_double_int, vmpi_packed,
	vmpi_aint, vmpi_c_float_complex, vmpi_c_double_complex,
	vmpi_c_long_double_complex, vmpi_offset, vmpi_count, vmpi_cxx_bool,
	vmpi_cxx_float_complex, vmpi_cxx_double_complex,
	vmpi_cxx_long_double_complex;
extern struct vmpi_op vmpi_op_max, vmpi_op_min, vmpi_op_sum, vmpi_op_prod,
	vmpi_op_land, vmpi_op_band, vmpi_op_lor, vmpi_op_bor, vmpi_op_lxor,
	vmpi_op_bxor, vmpi_op_maxloc, vmpi_op_minloc;

#define MPI_COMM_WORLD		(&vmpi_comm_world)
#define MPI_COMM_SELF		(&vmpi_comm_self)
#define MPI_COMM_NULL		((MPI_Comm)0)
#define MPI_GROUP_NULL		((MPI_Group)0)
#define MPI_GROUP_EMPTY		(&vmpi_group_empty)
#define MPI_DATATYPE_NULL	((MPI_Datatype)0)
#define MPI_OP_NULL		((MPI_Op)0)
#define MPI_REQUEST_NULL	((MPI_Request)0)
#define MPI_STATUS_IGNORE	((MPI_Status *)0)
#define MPI_STATUSES_IGNORE	((MPI_Status *)0)
#define MPI_IN_PLACE		((void *)1)
#define MPI_BOTTOM		((void *)0)

#define MPI_CHAR		(&vmpi_char)
#define MPI_SIGNED_CHAR		(&vmpi_signed_char)
#define MPI_UNSIGNED_CHAR	(&vmpi_unsigned_char)
#define MPI_BYTE		(&vmpi_byte)
#define MPI_SHORT		(&vmpi_short)
#define MPI_UNSIGNED_SHORT	(&vmpi_unsigned_short)
#define MPI_INT			(&vmpi_int)
#define MPI_UNSIGNED		(&vmpi_unsigned)
#define MPI_LONG		(&vmpi_long)
#define MPI_UNSIGNED_LONG	(&vmpi_unsigned_long)
#define MPI_LONG_LONG_INT	(&vmpi_long_long_int)
#define MPI_LONG_LONG		(&vmpi_long_long_int)
#define MPI_UNSIGNED_LONG_LONG	(&vmpi_unsigned_long_long)
#define MPI_FLOAT		(&vmpi_float)
#define MPI_DOUBLE		(&vmpi_double)
#define MPI_LONG_DOUBLE		(&vmpi_long_double)
#define MPI_C_BOOL		(&vmpi_c_bool)
#define MPI_INT8_T		(&vmpi_int8_t)
#define MPI_INT16_T		(&vmpi_int16_t)
#define MPI_INT32_T		(&vmpi_int32_t)
#define MPI_INT64_T		(&vmpi_int64_t)
#define MPI_UINT8_T		(&vmpi_uint8_t)
#define MPI_UINT16_T		(&vmpi_uint16_t)
#define MPI_UINT32_T		(&vmpi_uint32_t)
#define MPI_UINT64_T		(&vmpi_uint64_t)
#define MPI_WCHAR		(&vmpi_wchar)
#define MPI_FLOAT_INT		(&vmpi_float_int)
#define MPI_DOUBLE_INT		(&vmpi_double_int)
#define MPI_LONG_INT		(&vmpi_long_int)
#define MPI_2INT		(&vmpi_2int)
#define MPI_SHORT_INT		(&vmpi_short_int)
#define MPI_LONG_DOUBLE_INT	(&vmpi_long_double_int)
#define MPI_PACKED		(&vmpi_packed)
#define MPI_AINT		(&vmpi_aint)
#define MPI_C_COMPLEX		(&vmpi_c_float_complex)
#define MPI_C_FLOAT_COMPLEX	(&vmpi_c_float_complex)
#define MPI_C_DOUBLE_COMPLEX	(&vmpi_c_double_complex)
#define MPI_C_LONG_DOUBLE_COMPLEX (&vmpi_c_long_double_complex)
#define MPI_OFFSET		(&vmpi_offset)
#define MPI_COUNT		(&vmpi_count)
/* C++'s, for the C programs that name them: the same layouts */
#define MPI_CXX_BOOL		(&vmpi_cxx_bool)
#define MPI_CXX_FLOAT_COMPLEX	(&vmpi_cxx_float_complex)
#define MPI_CXX_DOUBLE_COMPLEX	(&vmpi_cxx_double_complex)
#define MPI_CXX_LONG_DOUBLE_COMPLEX (&vmpi_cxx_long_double_complex)
/* Fortran's types: vcube-mpi has no Fortran */
#define MPI_COMPLEX		MPI_DATATYPE_NULL
#define MPI_DOUBLE_COMPLEX	MPI_DATATYPE_NULL
#define MPI_TYPECLASS_REAL	1
#define MPI_TYPECLASS_INTEGER	2
#define MPI_TYPECLASS_COMPLEX	3

#define MPI_MAX			(&vmpi_op_max)
#define MPI_MIN			(&vmpi_op_min)
#define MPI_SUM			(&vmpi_op_sum)
#define MPI_PROD		(&vmpi_op_prod)
#define MPI_LAND		(&vmpi_op_land)
#define MPI_BAND		(&vmpi_op_band)
#define MPI_LOR			(&vmpi_op_lor)
#define MPI_BOR			(&vmpi_op_bor)
#define MPI_LXOR		(&vmpi_op_lxor)
#define MPI_BXOR		(&vmpi_op_bxor)
#define MPI_MAXLOC		(&vmpi_op_maxloc)
#define MPI_MINLOC		(&vmpi_op_minloc)

#define MPI_ANY_SOURCE		(-1)
#define MPI_ANY_TAG		(-1)
#define MPI_PROC_NULL		(-2)
#define MPI_ROOT		(-3)
#define MPI_UNDEFINED		(-32766)

#define MPI_MAX_PROCESSOR_NAME	256
#define MPI_MAX_ERROR_STRING	256
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_MAX_OBJECT_NAME	128

#define MPI_THREAD_SINGLE	0
#define MPI_THREAD_FUNNELED	1
#define MPI_THREAD_SERIALIZED	2
#define MPI_THREAD_MULTIPLE	3

#define MPI_ERRHANDLER_NULL	0
#define MPI_ERRORS_ARE_FATAL	1
#define MPI_ERRORS_RETURN	2

/* Error classes (and codes: each code is its class). */
#define MPI_SUCCESS		0
#define MPI_ERR_BUFFER		1
#define MPI_ERR_COUNT		2
#define MPI_ERR_TYPE		3
#define MPI_ERR_TAG		4
#define MPI_ERR_COMM		5
#define MPI_ERR_RANK		6
#define MPI_ERR_REQUEST		7
#define MPI_ERR_ROOT		8
#define MPI_ERR_GROUP		9
#define MPI_ERR_OP		10
#define MPI_ERR_TOPOLOGY	11
#define MPI_ERR_DIMS		12
#define MPI_ERR_ARG		13
#define MPI_ERR_UNKNOWN		14
#define MPI_ERR_TRUNCATE	15
#define MPI_ERR_OTHER		16
#define MPI_ERR_INTERN		17
#define MPI_ERR_IN_STATUS	18
#define MPI_ERR_PENDING		19
#define MPI_ERR_NO_MEM		20
#define MPI_ERR_UNSUPPORTED_OPERATION 21
#define MPI_ERR_KEYVAL		22
#define MPI_ERR_LASTCODE	22

/* Environment */
int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Initialized(int *flag);
int MPI_Finalize(void);
int MPI_Finalized(int *flag);
int MPI_Abort(MPI_Comm comm, int errorcode);
int MPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);
int MPI_Get_processor_name(char *name, int *resultlen);
int MPI_Get_version(int *version, int *subversion);
int MPI_Get_library_version(char *version, int *resultlen);
double MPI_Wtime(void);
double MPI_Wtick(void);
int MPI_Error_class(int errorcode, int *errorclass);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *code, ...);
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
			       MPI_Errhandler *errhandler);
int MPI_Errhandler_free(MPI_Errhandler *errhandler);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
int MPI_Add_error_class(int *errorclass);
int MPI_Add_error_code(int errorclass, int *errorcode);
int MPI_Add_error_string(int errorcode, const char *string);

/* Communicators */
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);

/*
 * Info objects; communicators take no hint (MPI_Comm_get_info answers an
 * empty one). MPI_COMM_TYPE_SHARED splits into each rank alone: the
 * modelled machine's nodes share no memory.
 */
typedef struct vmpi_info *MPI_Info;
extern struct vmpi_info vmpi_info_env;
#define MPI_INFO_NULL		((MPI_Info)0)
#define MPI_INFO_ENV		(&vmpi_info_env)
#define MPI_MAX_INFO_KEY	255
#define MPI_MAX_INFO_VAL	1024
#define MPI_COMM_TYPE_SHARED	1
int MPI_Info_create(MPI_Info *info);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
		 int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
			  int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_free(MPI_Info *info);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
			MPI_Comm *newcomm);

/*
 * Attributes: keyvals, with copy and delete callbacks; MPI_COMM_WORLD's
 * predefined ones (each value a pointer to an int: MPI_TAG_UB 32767,
 * MPI_UNIVERSE_SIZE the network's nodes, MPI_WTIME_IS_GLOBAL 1, the
 * virtual clock being one, MPI_HOST MPI_PROC_NULL, MPI_IO MPI_ANY_SOURCE,
 * MPI_APPNUM 0); MPI-1's names beside MPI-2's. Object names.
 */
#define MPI_KEYVAL_INVALID	(-1)
#define MPI_TAG_UB		1
#define MPI_HOST		2
#define MPI_IO			3
#define MPI_WTIME_IS_GLOBAL	4
#define MPI_UNIVERSE_SIZE	5
#define MPI_APPNUM		6
#define MPI_LASTUSEDCODE	7
typedef int MPI_Comm_copy_attr_function(MPI_Comm comm, int key, void *extra,
					void *in, void *out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int key, void *val,
					  void *extra);
typedef int MPI_Type_copy_attr_function(MPI_Datatype type, int key,
					void *extra, void *in, void *out,
					int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype type, int key,
					  void *val, void *extra);
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
int MPI_COMM_DUP_FN(MPI_Comm comm, int key, void *extra, void *in, void *out,
		    int *flag);
int MPI_TYPE_DUP_FN(MPI_Datatype type, int key, void *extra, void *in,
		    void *out, int *flag);
/* MPI-1's names, deprecated since MPI-2 (as Open MPI marks them) */
#define VMPI_DEPRECATED(use) __attribute__((deprecated("use " use)))
int MPI_DUP_FN(MPI_Comm comm, int key, void *extra, void *in, void *out,
	       int *flag) VMPI_DEPRECATED("MPI_COMM_DUP_FN");
#define MPI_COMM_NULL_COPY_FN	((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN	((MPI_Comm_delete_attr_function *)0)
#define MPI_TYPE_NULL_COPY_FN	((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN	((MPI_Type_delete_attr_function *)0)
#define MPI_NULL_COPY_FN	((MPI_Copy_function *)0)
#define MPI_NULL_DELETE_FN	((MPI_Delete_function *)0)
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
			   MPI_Comm_delete_attr_function *del, int *key,
			   void *extra);
int MPI_Comm_free_keyval(int *key);
int MPI_Comm_set_attr(MPI_Comm comm, int key, void *val);
int MPI_Comm_get_attr(MPI_Comm comm, int key, void *val, int *flag);
int MPI_Comm_delete_attr(MPI_Comm comm, int key);
int MPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del,
		      int *key, void *extra)
	VMPI_DEPRECATED("MPI_Comm_create_keyval");
int MPI_Keyval_free(int *key) VMPI_DEPRECATED("MPI_Comm_free_keyval");
int MPI_Attr_put(MPI_Comm comm, int key, void *val)
	VMPI_DEPRECATED("MPI_Comm_set_attr");
int MPI_Attr_get(MPI_Comm comm, int key, void *val, int *flag)
	VMPI_DEPRECATED("MPI_Comm_get_attr");
int MPI_Attr_delete(MPI_Comm comm, int key)
	VMPI_DEPRECATED("MPI_Comm_delete_attr");
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy,
			   MPI_Type_delete_attr_function *del, int *key,
			   void *extra);
int MPI_Type_free_keyval(int *key);
int MPI_Type_set_attr(MPI_Datatype type, int key, void *val);
int MPI_Type_get_attr(MPI_Datatype type, int key, void *val, int *flag);
int MPI_Type_delete_attr(MPI_Datatype type, int key);
int MPI_Comm_set_name(MPI_Comm comm, const char *name);
int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen);
int MPI_Type_set_name(MPI_Datatype type, const char *name);
int MPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen);

/* Groups, and communicators made from them */
#define MPI_IDENT		0
#define MPI_CONGRUENT		1
#define MPI_SIMILAR		2
#define MPI_UNEQUAL		3
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
			  MPI_Comm *newcomm);
int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);

/*
 * Intercommunicators: point to point between two groups, dup and free;
 * no collectives on them (MPI_ERR_COMM, as MPI_Comm_split and _create).
 */
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
			 MPI_Comm peer_comm, int remote_leader, int tag,
			 MPI_Comm *newintercomm);
int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
int MPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_free(MPI_Group *group);
int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
			      MPI_Group group2, int ranks2[]);
int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup);
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup);
int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int MPI_Group_intersection(MPI_Group group1, MPI_Group group2,
			   MPI_Group *newgroup);
int MPI_Group_difference(MPI_Group group1, MPI_Group group2,
			 MPI_Group *newgroup);

/* Process topologies: Cartesian grids */
#define MPI_CART		1
int MPI_Dims_create(int nnodes, int ndims, int dims[]);
int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
		    const int periods[], int reorder, MPI_Comm *comm_cart);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[],
		 int coords[]);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
		   int *rank_dest);
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int MPI_Topo_test(MPI_Comm comm, int *status);

/*
 * Graphs and distributed graphs: reorder is allowed, not done (a graph's
 * ranks stay as they are).
 */
#define MPI_GRAPH		2
#define MPI_DIST_GRAPH		3
#define MPI_UNWEIGHTED		((int *)1)
#define MPI_WEIGHTS_EMPTY	((int *)2)
int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[],
		     const int edges[], int reorder, MPI_Comm *comm_graph);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
		  int edges[]);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
			int neighbors[]);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
		  const int edges[], int *newrank);
int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree,
				   const int sources[],
				   const int sourceweights[], int outdegree,
				   const int destinations[],
				   const int destweights[], MPI_Info info,
				   int reorder, MPI_Comm *comm_dist_graph);
int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[],
			  const int degrees[], const int destinations[],
			  const int weights[], MPI_Info info, int reorder,
			  MPI_Comm *comm_dist_graph);
int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
				   int *outdegree, int *weighted);
int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
			     int sourceweights[], int maxoutdegree,
			     int destinations[], int destweights[]);
/* Neighbourhood collectives, on a Cartesian grid or a graph */
int MPI_Neighbor_allgather(const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf,
			    const int recvcounts[], const int displs[],
			    MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
			  MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
			   const int sdispls[], MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[],
			   const int rdispls[], MPI_Datatype recvtype,
			   MPI_Comm comm);

/* Datatypes */
#define MPI_ORDER_C		56
#define MPI_ORDER_FORTRAN	57
#define MPI_DISTRIBUTE_BLOCK	121
#define MPI_DISTRIBUTE_CYCLIC	122
#define MPI_DISTRIBUTE_NONE	123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[],
			   const int distribs[], const int dargs[],
			   const int psizes[], int order, MPI_Datatype oldtype,
			   MPI_Datatype *newtype);
int MPI_Type_size(MPI_Datatype type, int *size);
int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklength, int stride,
		    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
			    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int blocklengths[], const int displs[],
		     MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int blocklengths[],
			     const MPI_Aint displs[], MPI_Datatype oldtype,
			     MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklength,
				  const int displs[], MPI_Datatype oldtype,
				  MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block(int count, int blocklength,
				   const MPI_Aint displs[], MPI_Datatype oldtype,
				   MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int blocklengths[],
			   const MPI_Aint displs[], const MPI_Datatype types[],
			   MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
			    MPI_Datatype *newtype);
int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
			     const int starts[], int order, MPI_Datatype oldtype,
			     MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
#define MPI_COMBINER_NAMED		1
#define MPI_COMBINER_DUP		2
#define MPI_COMBINER_CONTIGUOUS		3
#define MPI_COMBINER_VECTOR		4
#define MPI_COMBINER_HVECTOR		5
#define MPI_COMBINER_INDEXED		6
#define MPI_COMBINER_HINDEXED		7
#define MPI_COMBINER_INDEXED_BLOCK	8
#define MPI_COMBINER_HINDEXED_BLOCK	9
#define MPI_COMBINER_STRUCT		10
#define MPI_COMBINER_SUBARRAY		11
#define MPI_COMBINER_DARRAY		12
#define MPI_COMBINER_F90_REAL		13
#define MPI_COMBINER_F90_COMPLEX	14
#define MPI_COMBINER_F90_INTEGER	15
#define MPI_COMBINER_RESIZED		16
int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers,
			  int *num_addresses, int *num_datatypes,
			  int *combiner);
int MPI_Type_get_contents(MPI_Datatype type, int max_integers,
			  int max_addresses, int max_datatypes, int integers[],
			  MPI_Aint addresses[], MPI_Datatype datatypes[]);
int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Get_address(const void *location, MPI_Aint *address);
int MPI_Type_commit(MPI_Datatype *type);
int MPI_Type_free(MPI_Datatype *type);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count);
int MPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf,
	     int outsize, int *position, MPI_Comm comm);
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
	       int outcount, MPI_Datatype type, MPI_Comm comm);
int MPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size);
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *type);
/* external32: the types whose elements keep their size in it */
int MPI_Pack_external_size(const char *datarep, int incount,
			   MPI_Datatype type, MPI_Aint *size);
int MPI_Pack_external(const char *datarep, const void *inbuf, int incount,
		      MPI_Datatype type, void *outbuf, MPI_Aint outsize,
		      MPI_Aint *position);
int MPI_Unpack_external(const char *datarep, const void *inbuf,
			MPI_Aint insize, MPI_Aint *position, void *outbuf,
			int outcount, MPI_Datatype type);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type,
		       MPI_Count *count);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type,
			      MPI_Count count);
int MPI_Type_size_x(MPI_Datatype type, MPI_Count *size);
int MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent);
int MPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *lb,
			       MPI_Count *extent);

/* Operators of the program's own */
typedef void MPI_User_function(void *invec, void *inoutvec, int *len,
			       MPI_Datatype *datatype);
int MPI_Op_create(MPI_User_function *function, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);
int MPI_Op_commutative(MPI_Op op, int *commute);

/* Point to point */
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	     MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	      MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	      MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
	     MPI_Comm comm, MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	      MPI_Comm comm, MPI_Request *request);
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
	      MPI_Comm comm, MPI_Request *request);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
		 MPI_Status *status);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
			 int sendtag, int source, int recvtag, MPI_Comm comm,
			 MPI_Status *status);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int MPI_Waitany(int count, MPI_Request requests[], int *index,
		MPI_Status *status);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Testall(int count, MPI_Request requests[], int *flag,
		MPI_Status statuses[]);
int MPI_Request_free(MPI_Request *request);
int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag,
		MPI_Status *status);
int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount,
		 int indices[], MPI_Status statuses[]);
int MPI_Testsome(int incount, MPI_Request requests[], int *outcount,
		 int indices[], MPI_Status statuses[]);
int MPI_Request_get_status(MPI_Request request, int *flag,
			   MPI_Status *status);
int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request);
/* Matched probes: the message a probe found, for MPI_Mrecv alone. */
typedef struct vmpi_message *MPI_Message;
extern struct vmpi_message vmpi_message_no_proc;
#define MPI_MESSAGE_NULL	((MPI_Message)0)
#define MPI_MESSAGE_NO_PROC	(&vmpi_message_no_proc)
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
	       MPI_Status *status);
int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
		MPI_Message *message, MPI_Status *status);
int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	      MPI_Status *status);
int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	       MPI_Request *request);
MPI_Fint MPI_Message_c2f(MPI_Message message);
MPI_Message MPI_Message_f2c(MPI_Fint message);
int MPI_Cancel(MPI_Request *request);
/* Generalised requests: the program completes them (one thread: before
 * it waits for them) */
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
		       MPI_Grequest_free_function *free_fn,
		       MPI_Grequest_cancel_function *cancel_fn,
		       void *extra_state, MPI_Request *request);
int MPI_Grequest_complete(MPI_Request request);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);

/* Persistent requests and buffered sends */
#define MPI_BSEND_OVERHEAD	64
int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source,
		  int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Start(MPI_Request *request);
int MPI_Startall(int count, MPI_Request requests[]);
int MPI_Buffer_attach(void *buffer, int size);
int MPI_Buffer_detach(void *buffer_addr, int *size);
int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status);

/* Collectives */
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
	      MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	       MPI_Comm comm);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm);
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 MPI_Comm comm);
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		  const int recvcounts[], const int rdispls[],
		  MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
		       const int recvcounts[], MPI_Datatype type, MPI_Op op,
		       MPI_Comm comm);
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
		 const int displs[], MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, const int recvcounts[], const int displs[],
		   MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], const MPI_Datatype sendtypes[],
		  void *recvbuf, const int recvcounts[], const int rdispls[],
		  const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
			     int recvcount, MPI_Datatype type, MPI_Op op,
			     MPI_Comm comm);
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
		     MPI_Datatype type, MPI_Op op);
int MPI_Exscan(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
	     MPI_Op op, MPI_Comm comm);

/*
 * Nonblocking collectives (MPI-3): each the blocking call's plan, progressed
 * inside the completion calls (docs/mpi.md).
 */
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root,
	       MPI_Comm comm, MPI_Request *request);
int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
		   MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		   MPI_Request *request);
int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
		MPI_Request *request);
int MPI_Iscan(const void *sendbuf, void *recvbuf, int count,
	      MPI_Datatype type, MPI_Op op, MPI_Comm comm,
	      MPI_Request *request);
int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
			      int recvcount, MPI_Datatype type, MPI_Op op,
			      MPI_Comm comm, MPI_Request *request);
int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
			const int recvcounts[], MPI_Datatype type, MPI_Op op,
			MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm, MPI_Request *request);
int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		   void *recvbuf, int recvcount, MPI_Datatype recvtype,
		   MPI_Comm comm, MPI_Request *request);
int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm, MPI_Request *request);
int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		 MPI_Comm comm, MPI_Request *request);
int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, const int recvcounts[], const int displs[],
		 MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request);
int MPI_Iscatterv(const void *sendbuf, const int sendcounts[],
		  const int displs[], MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, int root,
		  MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int rdispls[],
		   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    void *recvbuf, const int recvcounts[], const int displs[],
		    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], const MPI_Datatype sendtypes[],
		   void *recvbuf, const int recvcounts[], const int rdispls[],
		   const MPI_Datatype recvtypes[], MPI_Comm comm,
		   MPI_Request *request);
int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		MPI_Request *request);

/* The profiling interface: PMPI_ names for all the above. */
#include "pmpi.h"

#ifdef __cplusplus
}
#endif

#endif /* VCUBE_MPI_H */
